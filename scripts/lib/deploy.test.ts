import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishRemoteFiles, publishShell, readRegistry, rollback, switchTo } from './deploy.ts';

let deploy: string;
let dist: string;
const mounts = [{ path: '/dashboard/image', layout: 'dashboard' as const }];

beforeEach(() => {
  deploy = mkdtempSync(join(tmpdir(), 'atelier-deploy-'));
  dist = mkdtempSync(join(tmpdir(), 'atelier-dist-'));
  writeFileSync(join(dist, 'mf-manifest.json'), '{"v":1}');
  writeFileSync(join(dist, 'remoteEntry.js'), 'v1');
});
afterEach(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
});

describe('remote publishing', () => {
  it('copies a version once and never overwrites it', () => {
    expect(publishRemoteFiles(deploy, 'image', '1.0.0', dist, 'h1')).toBe('copied');
    writeFileSync(join(dist, 'remoteEntry.js'), 'v2');
    expect(publishRemoteFiles(deploy, 'image', '1.0.0', dist, 'h2')).toBe('exists');
    expect(readFileSync(join(deploy, 'remotes/image/1.0.0/remoteEntry.js'), 'utf8')).toBe('v1');
    expect(readdirSync(join(deploy, 'remotes/image'))).toEqual(['1.0.0']);
  });

  it('refuses a version string that could escape its folder', () => {
    expect(() => publishRemoteFiles(deploy, 'image', '../../x', dist, 'h')).toThrow('invalid version');
  });
});

describe('registry switching', () => {
  it('release makes the new version live and keeps the old as previous', () => {
    switchTo(deploy, 'image', '1.0.0', mounts);
    const e = switchTo(deploy, 'image', '1.1.0', mounts);
    expect(e.version).toBe('1.1.0');
    expect(e.entry).toBe('/remotes/image/1.1.0/mf-manifest.json');
    expect(e.previous?.version).toBe('1.0.0');
    expect(readRegistry(deploy).remotes.image!.version).toBe('1.1.0');
  });

  it('rollback returns to the previous version, then further back', () => {
    switchTo(deploy, 'image', '1.0.0', mounts);
    switchTo(deploy, 'image', '1.1.0', mounts);
    switchTo(deploy, 'image', '1.2.0', mounts);
    expect(rollback(deploy, 'image')).toMatchObject({ version: '1.1.0', previous: { version: '1.0.0' } });
    expect(rollback(deploy, 'image')).toMatchObject({ version: '1.0.0', previous: null });
    expect(() => rollback(deploy, 'image')).toThrow('no earlier version');
  });

  it('re-releasing the live version changes nothing but its mounts', () => {
    switchTo(deploy, 'image', '1.0.0', mounts);
    switchTo(deploy, 'image', '1.1.0', mounts);
    const e = switchTo(deploy, 'image', '1.1.0', [{ path: '/x', layout: 'default' }]);
    expect(e.previous?.version).toBe('1.0.0');
    expect(e.mounts).toEqual([{ path: '/x', layout: 'default' }]);
  });

  it('writes the registry atomically, leaving no temporary files or lock', () => {
    for (let i = 0; i < 20; i++) switchTo(deploy, 'image', `1.0.${i}`, mounts);
    expect(readdirSync(deploy).sort()).toEqual(['remotes.json']);
    expect(readRegistry(deploy).remotes.image!.history).toHaveLength(10);
  });
});

describe('shell publishing', () => {
  it('replaces the shell files and leaves remotes alone', () => {
    const shell = mkdtempSync(join(tmpdir(), 'atelier-shell-'));
    mkdirSync(join(shell, 'static/js'), { recursive: true });
    writeFileSync(join(shell, 'index.html'), '<html>');
    writeFileSync(join(shell, 'static/js/a.js'), 'a');
    publishRemoteFiles(deploy, 'image', '1.0.0', dist, 'h');
    publishShell(deploy, shell, 111);
    rmSync(join(shell, 'static/js/a.js'));
    writeFileSync(join(shell, 'static/js/b.js'), 'b');
    publishShell(deploy, shell, 222);
    expect(existsSync(join(deploy, 'static/js/a.js'))).toBe(false);
    expect(existsSync(join(deploy, 'static/js/b.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(deploy, 'version.json'), 'utf8'))).toEqual({ timestamp: 222 });
    expect(existsSync(join(deploy, 'remotes/image/1.0.0/remoteEntry.js'))).toBe(true);
    rmSync(shell, { recursive: true, force: true });
  });
});
