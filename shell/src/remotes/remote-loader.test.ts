import { describe, expect, it, vi } from 'vitest';
import { CONTRACT_MAJOR, parseRegistry, type RemoteRegistry } from '@atelier/contract';
import { RemoteLoader, RemoteLoadError, type LoadModule } from './remote-loader.ts';

const version = (v: string) => ({ version: v, entry: `/remotes/image/${v}/mf-manifest.json`, releasedAt: '2026-01-01T00:00:00Z' });
const registryWith = (current: string, previous: string | null): RemoteRegistry =>
  parseRegistry({
    schema: 1,
    remotes: {
      image: { ...version(current), mounts: [{ path: '/dashboard/image', layout: 'dashboard' }], previous: previous ? version(previous) : null, history: previous ? [version(previous)] : [] },
    },
  });
const moduleOf = (v: string, contract: number = CONTRACT_MAJOR) => ({ name: 'image', version: v, contract, routes: [], i18n: { namespace: 'image', load: {} } });

/** A fake federation runtime: each entry URL either yields a module or fails. */
function runtime(behaviour: Record<string, 'ok' | 'fail' | 'incompatible'>) {
  const calls: { entry: string; fresh: boolean }[] = [];
  const load: LoadModule = async (_remote, entry, { fresh }) => {
    calls.push({ entry, fresh });
    const v = /\/remotes\/image\/([^/]+)\//.exec(entry)![1]!;
    const b = behaviour[v] ?? 'fail';
    if (b === 'fail') throw new Error(`404 ${entry}`);
    return moduleOf(v, b === 'incompatible' ? CONTRACT_MAJOR + 1 : CONTRACT_MAJOR);
  };
  return { load, calls };
}

describe('RemoteLoader', () => {
  it('loads a remote once and caches it', async () => {
    const rt = runtime({ '1.0.0': 'ok' });
    const loader = new RemoteLoader({ registry: registryWith('1.0.0', null), load: rt.load, fetchRegistry: vi.fn() });
    const [a, b] = await Promise.all([loader.get('image'), loader.get('image')]);
    expect(a).toBe(b);
    expect(a.version).toBe('1.0.0');
    expect(rt.calls).toHaveLength(1);
    expect(loader.status('image')).toEqual({ state: 'ready', version: '1.0.0', fellBack: false });
  });

  it('retries a failed load once, fresh', async () => {
    let n = 0;
    const load: LoadModule = async (_r, _e, { fresh }) => {
      n += 1;
      if (n === 1) throw new Error('network');
      expect(fresh).toBe(true);
      return moduleOf('1.0.0');
    };
    const loader = new RemoteLoader({ registry: registryWith('1.0.0', null), load, fetchRegistry: vi.fn(), retryDelayMs: 0 });
    await expect(loader.get('image')).resolves.toMatchObject({ version: '1.0.0', fellBack: false });
    expect(n).toBe(2);
  });

  it('falls back to the previous good version when the current one fails', async () => {
    const rt = runtime({ '1.0.0': 'ok', '1.1.0': 'fail' });
    const loader = new RemoteLoader({ registry: registryWith('1.1.0', '1.0.0'), load: rt.load, fetchRegistry: vi.fn(), retryDelayMs: 0 });
    const loaded = await loader.get('image');
    expect(loaded).toMatchObject({ version: '1.0.0', fellBack: true });
    expect(rt.calls.map((c) => c.entry)).toEqual([version('1.1.0').entry, version('1.1.0').entry, version('1.0.0').entry]);
  });

  it('refuses a remote built for another contract major', async () => {
    const rt = runtime({ '2.0.0': 'incompatible' });
    const loader = new RemoteLoader({ registry: registryWith('2.0.0', null), load: rt.load, fetchRegistry: vi.fn(), retryDelayMs: 0 });
    const err = (await loader.get('image').catch((e: unknown) => e)) as RemoteLoadError;
    expect(err).toBeInstanceOf(RemoteLoadError);
    expect(err.failure).toEqual({ kind: 'incompatible', expected: CONTRACT_MAJOR, actual: CONTRACT_MAJOR + 1 });
    expect(loader.status('image')).toEqual({ state: 'failed', failure: 'incompatible' });
  });

  it('reports a remote missing from the registry as unavailable', async () => {
    const loader = new RemoteLoader({ registry: registryWith('1.0.0', null), load: vi.fn(), fetchRegistry: vi.fn() });
    await expect(loader.get('chat')).rejects.toMatchObject({ failure: { kind: 'unavailable' } });
  });

  it('retry re-reads the registry and loads the version now live, fresh', async () => {
    const rt = runtime({ '1.0.0': 'fail', '1.0.1': 'ok' });
    const fetchRegistry = vi.fn(async () => registryWith('1.0.1', null));
    const loader = new RemoteLoader({ registry: registryWith('1.0.0', null), load: rt.load, fetchRegistry, retryDelayMs: 0 });
    await expect(loader.get('image')).rejects.toBeInstanceOf(RemoteLoadError);
    const loaded = await loader.retry('image');
    expect(fetchRegistry).toHaveBeenCalledOnce();
    expect(loaded.version).toBe('1.0.1');
    expect(rt.calls.at(-1)).toEqual({ entry: version('1.0.1').entry, fresh: true });
    await expect(loader.get('image')).resolves.toBe(loaded);
  });

  it('does not cache failures: the next visit tries again', async () => {
    const behaviour: Record<string, 'ok' | 'fail'> = { '1.0.0': 'fail' };
    const rt = runtime(behaviour);
    const loader = new RemoteLoader({ registry: registryWith('1.0.0', null), load: rt.load, fetchRegistry: vi.fn(), retryDelayMs: 0 });
    await expect(loader.get('image')).rejects.toBeInstanceOf(RemoteLoadError);
    behaviour['1.0.0'] = 'ok';
    await expect(loader.get('image')).resolves.toMatchObject({ version: '1.0.0' });
  });

  it('runs prepare (translations) before handing the module out', async () => {
    const order: string[] = [];
    const rt = runtime({ '1.0.0': 'ok' });
    const loader = new RemoteLoader({
      registry: registryWith('1.0.0', null),
      load: rt.load,
      fetchRegistry: vi.fn(),
      prepare: async () => void order.push('prepare'),
    });
    await loader.get('image').then(() => order.push('ready'));
    expect(order).toEqual(['prepare', 'ready']);
  });
});
