import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_VERSION_KEY, RELOAD_GUARD_KEY, RELOAD_GUARD_MS, VERSION_CHECK_INTERVAL_MS, versionCheckInterval } from './constants.ts';
import type { ServiceWorkerHooks } from './service-worker.ts';
import { UpdateWatcher, type UpdateWatcherEnv } from './update-watcher.ts';
import { readAppVersion, reloadWithGuard } from './version-check.ts';

/** A fake deployment: what /version.json answers, and every URL asked. */
function server(initial: number | Error | { status: number } | string) {
  let answer = initial;
  const urls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    urls.push(String(input));
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'object') return new Response('nope', { status: answer.status });
    if (typeof answer === 'string') return new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
    return Response.json({ timestamp: answer });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    urls,
    deploy: (next: typeof answer) => {
      answer = next;
    },
  };
}

let clock = 1_000_000;
function env(fetch: typeof globalThis.fetch, extra: Partial<UpdateWatcherEnv> = {}) {
  const reload = vi.fn();
  const debug = vi.fn();
  const e: UpdateWatcherEnv = {
    fetch,
    localStorage,
    sessionStorage,
    now: () => clock,
    reload,
    debug,
    intervalMs: VERSION_CHECK_INTERVAL_MS,
    ...extra,
  };
  return { env: e, reload, debug };
}

/** Lets pending promises (fetch, json) settle. */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  clock = 1_000_000;
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the version check', () => {
  it('runs hourly by default; tests may shorten it through window.__ATELIER_VERSION_CHECK_MS__ only', () => {
    expect(VERSION_CHECK_INTERVAL_MS).toBe(60 * 60 * 1000);
    expect(RELOAD_GUARD_MS).toBe(10_000);
    expect(versionCheckInterval({})).toBe(VERSION_CHECK_INTERVAL_MS);
    expect(versionCheckInterval({ __ATELIER_VERSION_CHECK_MS__: 500 })).toBe(500);
    for (const bad of ['500', 0, -1, Number.NaN, null]) expect(versionCheckInterval({ __ATELIER_VERSION_CHECK_MS__: bad })).toBe(VERSION_CHECK_INTERVAL_MS);
  });

  it('asks /version.json with a cache-busting timestamp', async () => {
    const s = server(100);
    const watcher = new UpdateWatcher(env(s.fetch).env);
    await watcher.check();
    expect(s.urls).toEqual([`/version.json?t=${clock}`]);
  });

  it('first run (app_version 0): stores the timestamp and shows nothing', async () => {
    const s = server(100);
    const watcher = new UpdateWatcher(env(s.fetch).env);
    expect(await watcher.check('interval')).toBe('first-run');
    expect(localStorage.getItem(APP_VERSION_KEY)).toBe('100');
    expect(watcher.getSnapshot().available).toBe(false);
  });

  it('a newer server timestamp shows the notice, hourly; the same one does not', async () => {
    const s = server(100);
    const { env: e } = env(s.fetch);
    const watcher = new UpdateWatcher(e);
    const stop = watcher.start();
    await flush();
    expect(localStorage.getItem(APP_VERSION_KEY)).toBe('100');
    vi.advanceTimersByTime(VERSION_CHECK_INTERVAL_MS - 1);
    await flush();
    expect(s.urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.urls).toHaveLength(2);
    expect(watcher.getSnapshot().available).toBe(false);

    s.deploy(200);
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    expect(watcher.getSnapshot()).toEqual({ available: true, refreshing: false, source: 'version-check', timestamp: 200 });
    // Shown, not yet accepted: app_version keeps the old value until "Refresh Now".
    expect(readAppVersion(localStorage)).toBe(100);
    // Persistent: it does not close by itself.
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS * 3);
    expect(watcher.getSnapshot().available).toBe(true);
    stop();
  });

  it('compares with the stored app_version', async () => {
    localStorage.setItem(APP_VERSION_KEY, '100');
    const s = server(150);
    const watcher = new UpdateWatcher(env(s.fetch).env);
    expect(await watcher.check('interval')).toBe('newer');
    expect(watcher.getSnapshot()).toMatchObject({ available: true, timestamp: 150 });
  });

  it('at start, records the version the page was just served without announcing it', async () => {
    localStorage.setItem(APP_VERSION_KEY, '100'); // deployed 150 while no tab was open
    const s = server(150);
    const watcher = new UpdateWatcher(env(s.fetch).env);
    expect(await watcher.check('start')).toBe('current');
    expect(readAppVersion(localStorage)).toBe(150);
    expect(watcher.getSnapshot().available).toBe(false);
  });

  it('an hourly check never overtakes the check at start', async () => {
    localStorage.setItem(APP_VERSION_KEY, '100');
    let answerStart = (_: Response) => {};
    const fetch = vi
      .fn()
      .mockImplementationOnce(() => new Promise<Response>((r) => (answerStart = r)))
      .mockImplementation(async () => Response.json({ timestamp: 150 }));
    const watcher = new UpdateWatcher(env(fetch as unknown as typeof globalThis.fetch, { intervalMs: 10 }).env);
    watcher.start();
    await vi.advanceTimersByTimeAsync(50); // several hourly checks are due while the first is slow
    answerStart(Response.json({ timestamp: 150 }));
    await vi.advanceTimersByTimeAsync(50);
    expect(watcher.getSnapshot().available).toBe(false);
    expect(readAppVersion(localStorage)).toBe(150);
    watcher.stop();
  });

  it('tells an old tab even when a newer tab already stored the new version', async () => {
    const s = server(100);
    const watcher = new UpdateWatcher(env(s.fetch).env);
    watcher.start();
    await flush();
    s.deploy(200);
    localStorage.setItem(APP_VERSION_KEY, '200'); // another tab loaded 200
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    expect(watcher.getSnapshot()).toMatchObject({ available: true, timestamp: 200 });
    watcher.stop();
  });

  it.each([
    ['a network error', new TypeError('Failed to fetch')],
    ['an error status', { status: 503 }],
    ['a body that is not JSON', '<html>'],
    ['a body without a numeric timestamp', '{"timestamp":"soon"}'],
  ])('logs %s at debug level only, and changes nothing', async (_, answer) => {
    localStorage.setItem(APP_VERSION_KEY, '100');
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    const log = vi.spyOn(console, 'log');
    const s = server(answer);
    const { env: e, debug } = env(s.fetch);
    const watcher = new UpdateWatcher(e);
    expect(await watcher.check('interval')).toBe('failed');
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]![0]).toMatch(/version check failed/);
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(watcher.getSnapshot().available).toBe(false);
    expect(readAppVersion(localStorage)).toBe(100);
  });

  it('the browser watcher logs failures with console.debug', async () => {
    const { createBrowserUpdateWatcher } = await import('./update-watcher.ts');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('offline'));
    expect(await createBrowserUpdateWatcher().check()).toBe('failed');
    expect(debug).toHaveBeenCalledWith('[atelier] update: version check failed', expect.any(TypeError));
  });
});

describe('the service worker message', () => {
  function fakeWorker(waiting = false) {
    let announce = () => {};
    const hooks: ServiceWorkerHooks = {
      waiting,
      update: vi.fn(async () => undefined),
      activateWaiting: vi.fn(async () => true),
    };
    const onWorkerUpdate = vi.fn((l: () => void) => {
      announce = l;
      return () => {
        announce = () => {};
      };
    });
    return { hooks, onWorkerUpdate, env: { connectServiceWorker: async () => hooks, onWorkerUpdate }, announce: () => announce() };
  }

  it('UPDATE_AVAILABLE shows the notice; each hourly check also looks for a new worker', async () => {
    const w = fakeWorker();
    const s = server(100);
    const watcher = new UpdateWatcher(env(s.fetch, w.env).env);
    watcher.start();
    await flush();
    w.announce();
    expect(watcher.getSnapshot()).toEqual({ available: true, refreshing: false, source: 'service-worker', timestamp: null });
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    expect(w.hooks.update).toHaveBeenCalledTimes(1);
    watcher.stop();
  });

  it('listens before the worker is registered, and stops listening when stopped', async () => {
    const w = fakeWorker();
    let registered = (_: ServiceWorkerHooks) => {};
    const watcher = new UpdateWatcher(
      env(server(100).fetch, { ...w.env, connectServiceWorker: () => new Promise<ServiceWorkerHooks>((r) => (registered = r)) }).env,
    );
    watcher.start();
    expect(w.onWorkerUpdate).toHaveBeenCalledTimes(1);
    w.announce(); // the page has not finished loading, the worker is not registered yet
    expect(watcher.getSnapshot().available).toBe(true);
    registered(w.hooks);
    watcher.stop();
    const again = new UpdateWatcher(env(server(100).fetch, w.env).env);
    again.start();
    again.stop();
    w.announce();
    expect(again.getSnapshot().available).toBe(false);
  });

  it('a new worker already waiting when the page registers shows the notice', async () => {
    const w = fakeWorker(true);
    const watcher = new UpdateWatcher(env(server(100).fetch, w.env).env);
    watcher.start();
    await flush();
    expect(watcher.getSnapshot()).toMatchObject({ available: true, source: 'service-worker' });
    watcher.stop();
  });

  it('"Refresh Now" lets the waiting worker take over, then reloads', async () => {
    const w = fakeWorker();
    const s = server(100);
    const { env: e, reload } = env(s.fetch, w.env);
    const watcher = new UpdateWatcher(e);
    watcher.start();
    await flush();
    w.announce();
    expect(await watcher.refresh()).toBe(true);
    expect(w.hooks.activateWaiting).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
    watcher.stop();
  });

  it('a failed registration is logged at debug level and the version check still works', async () => {
    const s = server(100);
    const { env: e, debug } = env(s.fetch, { connectServiceWorker: async () => Promise.reject(new Error('SecurityError')) });
    const watcher = new UpdateWatcher(e);
    watcher.start();
    await flush();
    expect(debug).toHaveBeenCalledWith('[atelier] update: service worker registration failed', expect.any(Error));
    s.deploy(200);
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    expect(watcher.getSnapshot()).toMatchObject({ available: true, timestamp: 200 });
    watcher.stop();
  });
});

describe('"Refresh Now" and the reload guard', () => {
  it('stores the new timestamp and reloads', async () => {
    const s = server(100);
    const { env: e, reload } = env(s.fetch);
    const watcher = new UpdateWatcher(e);
    watcher.start();
    await flush();
    s.deploy(200);
    await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    expect(await watcher.refresh()).toBe(true);
    expect(readAppVersion(localStorage)).toBe(200);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(RELOAD_GUARD_KEY)).toBe(String(clock));
    watcher.stop();
  });

  it('does not reload again within 10 s of the last reload, and does after', () => {
    const reload = vi.fn();
    const debug = vi.fn();
    const guard = { sessionStorage, now: () => clock, reload, debug };
    expect(reloadWithGuard(guard)).toBe(true);
    clock += RELOAD_GUARD_MS - 1;
    expect(reloadWithGuard(guard)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/reload skipped/));
    clock += 1;
    expect(reloadWithGuard(guard)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('a page that reloaded less than 10 s ago keeps the notice instead of reloading again', async () => {
    sessionStorage.setItem(RELOAD_GUARD_KEY, String(clock - 2000));
    localStorage.setItem(APP_VERSION_KEY, '100');
    const s = server(200);
    const { env: e, reload, debug } = env(s.fetch);
    const watcher = new UpdateWatcher(e);
    await watcher.check('interval');
    expect(await watcher.refresh()).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalled();
    expect(watcher.getSnapshot()).toMatchObject({ available: true, refreshing: false });
    clock += 8000;
    expect(await watcher.refresh()).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does nothing while no update is shown', async () => {
    const { env: e, reload } = env(server(100).fetch);
    expect(await new UpdateWatcher(e).refresh()).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
