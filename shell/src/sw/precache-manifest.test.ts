// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { INJECTION_POINT, injectManifest, isPrecached, precacheManifest } from './precache-manifest.ts';

let dist: string;
const write = (path: string, content = path) => {
  mkdirSync(dirname(join(dist, path)), { recursive: true });
  writeFileSync(join(dist, path), content);
};

beforeEach(() => {
  dist = mkdtempSync(join(tmpdir(), 'atelier-sw-'));
});
afterEach(() => rmSync(dist, { recursive: true, force: true }));

describe('precache manifest', () => {
  it('lists index.html and the hashed /static files, nothing else of the deploy root', () => {
    for (const f of [
      'index.html',
      'favicon.svg',
      'sw.js',
      'mf-manifest.json',
      'mf-stats.json',
      'independent-packages/react_router/8.5.1/share-entry.js',
      'static/js/index.c21a5fe8b2.js',
      'static/js/async/t.79f24dcf0b.js',
      'static/js/async/t.79f24dcf0b.js.LICENSE.txt',
      'static/js/async/t.79f24dcf0b.js.map',
      'static/css/async/d.1b6a2961f7.css',
    ]) {
      write(f);
    }
    expect(precacheManifest(dist)).toEqual([
      { url: '/index.html', revision: expect.stringMatching(/^[0-9a-f]{16}$/) },
      { url: '/static/css/async/d.1b6a2961f7.css', revision: null },
      { url: '/static/js/async/t.79f24dcf0b.js', revision: null },
      { url: '/static/js/index.c21a5fe8b2.js', revision: null },
    ]);
  });

  it('never precaches what the server must always answer fresh', () => {
    for (const p of ['remotes.json', 'version.json', 'config.json', 'api/health', 'remotes/image/1.0.0/remoteEntry.js', 'sw.js']) {
      expect(isPrecached(p), p).toBe(false);
    }
  });

  it("index.html's revision follows its content; an unhashed static file gets one too", () => {
    write('index.html', 'v1');
    write('static/image/logo.png', 'png');
    const [a, logo] = precacheManifest(dist);
    write('index.html', 'v2');
    const [b] = precacheManifest(dist);
    expect(a!.revision).not.toBe(b!.revision);
    expect(logo).toEqual({ url: '/static/image/logo.png', revision: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('replaces the single injection point, and refuses a bundle without exactly one', () => {
    const manifest = [{ url: '/index.html', revision: 'abc' }];
    expect(injectManifest(`a(${INJECTION_POINT});`, manifest)).toBe('a([{"url":"/index.html","revision":"abc"}]);');
    expect(() => injectManifest('a();', manifest)).toThrow(/exactly once, found 0/);
    expect(() => injectManifest(`${INJECTION_POINT}${INJECTION_POINT}`, manifest)).toThrow(/found 2/);
  });
});
