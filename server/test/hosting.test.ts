import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createApp } from '../src/app.ts';
import { DEFAULT_PUBLIC_CONFIG } from '@atelier/config';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { createServices } from '../src/services.ts';
import { testConfig } from './support/testServer.ts';

let deploy: string;
let app: ReturnType<typeof createApp>;
let database: DatabaseHandle;

beforeAll(async () => {
  deploy = mkdtempSync(join(tmpdir(), 'atelier-host-'));
  mkdirSync(join(deploy, 'static/js'), { recursive: true });
  mkdirSync(join(deploy, 'remotes/image/1.0.0'), { recursive: true });
  writeFileSync(join(deploy, 'index.html'), '<!doctype html><html><head><title>Atelier</title></head><body></body></html>');
  writeFileSync(join(deploy, 'static/js/index.abc.js'), 'console.log(1);'.repeat(200));
  writeFileSync(join(deploy, 'remotes/image/1.0.0/remoteEntry.js'), 'var x;');
  writeFileSync(join(deploy, 'version.json'), '{"timestamp":1}');
  writeFileSync(join(deploy, 'secret.txt'), 'outside? no, inside');
  writeFileSync(
    join(deploy, 'remotes.json'),
    JSON.stringify({
      schema: 1,
      remotes: {
        image: {
          version: '1.0.0',
          entry: '/remotes/image/1.0.0/mf-manifest.json',
          releasedAt: '</script><script>alert(1)</script>',
          mounts: [{ path: '/dashboard/image', layout: 'dashboard' }],
          previous: null,
          history: [],
        },
      },
    }),
  );
  database = await openDatabase({ pgliteDir: 'memory://' });
  app = createApp(createServices(testConfig({ deployDir: deploy, publicConfig: DEFAULT_PUBLIC_CONFIG }), database.db));
});
afterAll(async () => {
  rmSync(deploy, { recursive: true, force: true });
  await database.close();
});

describe('deploy root hosting', () => {
  it('serves an app route with the registry inlined and safely escaped', async () => {
    const res = await app.request('/ja/dashboard/image');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
    const html = await res.text();
    expect(html).toContain('window.__ATELIER_REGISTRY__=');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script>');
  });

  it('answers 404 (with the app, which shows its 404 screen) where no remote owns the path', async () => {
    const res = await app.request('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('serves versioned remote files and hashed shell assets as immutable', async () => {
    const remote = await app.request('/remotes/image/1.0.0/remoteEntry.js');
    expect(remote.status).toBe(200);
    expect(remote.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const asset = await app.request('/static/js/index.abc.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/remotes.json', '/version.json', '/index.html', '/config.json'])('never caches %s', async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
  });

  it('compresses text assets for clients that accept it', async () => {
    const res = await app.request('/static/js/index.abc.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(body).toString()).toBe('console.log(1);'.repeat(200));
  });

  it('never serves files outside the deploy root', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/static/../../etc/passwd.txt']) {
      const res = await app.request(path);
      expect(res.status).toBe(404);
    }
  });

  it('answers unknown API paths in the API error shape', async () => {
    const res = await app.request('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });
  });
});
