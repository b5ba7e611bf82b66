import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, expect } from '../support/site.ts';
import { NODE, ROOT } from '../support/paths.ts';

/** Hash of every shell file in the deploy root: everything but the remotes and their registry. */
function shellFingerprint(deployDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      const rel = relative(deployDir, p);
      if (rel === 'remotes' || rel === 'remotes.json' || d.name.startsWith('.')) continue;
      if (d.isDirectory()) walk(p);
      else out.set(rel, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(deployDir);
  return out;
}

function cli(task: 'release' | 'rollback', args: string[], deployDir: string): { remote: string; version: string; previous: string | null } {
  const out = execFileSync(NODE, [join(ROOT, 'scripts', 'tasks', `${task}.ts`), ...args, '--json'], {
    env: { ...process.env, ATELIER_DEPLOY_DIR: deployDir },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

test('release switches one remote while the server runs; rollback switches it back; the shell is untouched', async ({ page, site }) => {
  const before = site.registry().remotes['api-keys']!.version;
  const othersBefore = Object.fromEntries(Object.entries(site.registry().remotes).filter(([n]) => n !== 'api-keys'));
  const shellBefore = shellFingerprint(site.deployDir);
  await page.goto(`${site.url}/dashboard/api`);
  await expect(page.locator('[data-remote="api-keys"]')).toHaveAttribute('data-remote-version', before);

  const next = `${before}-e2e.${Date.now()}`;
  expect(cli('release', ['api-keys', '--version', next], site.deployDir)).toEqual({ remote: 'api-keys', version: next, previous: before });
  await page.reload();
  await expect(page.locator('[data-remote="api-keys"]')).toHaveAttribute('data-remote-version', next);
  expect(shellFingerprint(site.deployDir)).toEqual(shellBefore);

  // The other remotes did not move.
  const reg = site.registry();
  expect(reg.remotes['api-keys']!.previous?.version).toBe(before);
  expect(Object.fromEntries(Object.entries(reg.remotes).filter(([n]) => n !== 'api-keys'))).toEqual(othersBefore);

  expect(cli('rollback', ['api-keys'], site.deployDir)).toMatchObject({ remote: 'api-keys', version: before });
  await page.reload();
  await expect(page.locator('[data-remote="api-keys"]')).toHaveAttribute('data-remote-version', before);
  expect(shellFingerprint(site.deployDir)).toEqual(shellBefore);
});

test('versioned assets are immutable; the registry, the document and version.json are never cached', async ({ request, site }) => {
  const reg = site.registry();
  const entry = reg.remotes.image!.entry;
  const manifest = await request.get(site.url + entry);
  expect(manifest.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const remoteEntry = await request.get(site.url + entry.replace('mf-manifest.json', 'remoteEntry.js'));
  expect(remoteEntry.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const html = await (await request.get(`${site.url}/`)).text();
  const shellScript = /src="(\/static\/js\/[^"]+)"/.exec(html)![1]!;
  expect((await request.get(site.url + shellScript)).headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  for (const path of ['/remotes.json', '/', '/dashboard/image', '/index.html', '/version.json']) {
    const res = await request.get(site.url + path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['cache-control'], path).toBe('no-cache, no-store, must-revalidate');
  }
});

test('a release of an already published version from other sources is refused', async ({ site }) => {
  const current = site.registry().remotes.music!.version;
  const dir = join(site.deployDir, 'remotes', 'music', current);
  // Pretend the published copy came from different sources.
  execFileSync('sh', ['-c', `printf other > "${join(dir, '.source-hash')}"`]);
  expect(() => cli('release', ['music', '--version', current], site.deployDir)).toThrow();
  expect(site.registry().remotes.music!.version).toBe(current);
});
