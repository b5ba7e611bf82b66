import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_MAJOR, checkContract, findMount, parseRegistry, RegistryError } from './index.ts';

const entry = (mounts: { path: string; layout: 'default' | 'dashboard' }[], version = '1.0.0') => ({
  version,
  entry: `/remotes/x/${version}/mf-manifest.json`,
  releasedAt: '2026-01-01T00:00:00.000Z',
  mounts,
  previous: null,
  history: [],
});

const registry = parseRegistry({
  schema: 1,
  remotes: {
    site: entry([{ path: '/', layout: 'default' }, { path: '/pricing', layout: 'default' }]),
    account: entry([{ path: '/dashboard', layout: 'dashboard' }]),
    image: entry([{ path: '/dashboard/image', layout: 'dashboard' }]),
  },
});

describe('parseRegistry', () => {
  it('accepts a well-formed registry and fills defaults', () => {
    expect(Object.keys(registry.remotes)).toEqual(['site', 'account', 'image']);
    expect(registry.remotes.image!.previous).toBeNull();
  });

  it.each([
    [null, 'not an object'],
    [{ schema: 2, remotes: {} }, 'unsupported registry schema'],
    [{ schema: 1, remotes: { a: { version: '1' } } }, 'remote a: missing'],
    [{ schema: 1, remotes: { a: { ...entry([]), mounts: [{ path: 'x', layout: 'default' }] } } }, 'remote a: bad mounts'],
    [{ schema: 1, remotes: { a: { ...entry([]), previous: { version: 1 } } } }, 'remote a: bad previous'],
  ])('rejects %j', (json, message) => {
    expect(() => parseRegistry(json)).toThrow(RegistryError);
    expect(() => parseRegistry(json)).toThrow(message);
  });
});

describe('findMount', () => {
  it('picks the longest mount owning the path', () => {
    expect(findMount(registry, '/dashboard/image/create/text-to-image')?.remote).toBe('image');
    expect(findMount(registry, '/dashboard/image')?.remote).toBe('image');
    expect(findMount(registry, '/dashboard/')?.remote).toBe('account');
    expect(findMount(registry, '/pricing')?.mount.layout).toBe('default');
  });

  it('gives / only the root, so unknown paths match nothing', () => {
    expect(findMount(registry, '/')?.remote).toBe('site');
    expect(findMount(registry, '/no-such-page')).toBeNull();
    expect(findMount(registry, '/dashboardx')).toBeNull();
  });
});

describe('checkContract', () => {
  const module = { name: 'x', version: '1', contract: CONTRACT_MAJOR, routes: [], i18n: { namespace: 'x', load: {} } };

  it('accepts a module built for this major', () => {
    expect(checkContract(module)).toEqual({ ok: true });
  });

  it('refuses another major, saying which', () => {
    expect(checkContract({ ...module, contract: 2 })).toEqual({ ok: false, reason: 'incompatible', expected: CONTRACT_MAJOR, actual: 2 });
  });

  it('refuses what is not a module', () => {
    expect(checkContract(undefined)).toEqual({ ok: false, reason: 'not-a-module' });
    expect(checkContract({ contract: 1 })).toEqual({ ok: false, reason: 'not-a-module' });
  });

  it('keeps the package major and CONTRACT_MAJOR in step', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(Number(pkg.version.split('.')[0])).toBe(CONTRACT_MAJOR);
  });
});
