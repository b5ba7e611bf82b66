/**
 * The seed's "App update" (section 4): a new version is announced either by the service worker
 * (UPDATE_AVAILABLE, when a new deployment's worker installs) or by the hourly version check
 * (`/version.json?t=<now>` has a timestamp greater than the known one). Either way the notice
 * appears and stays; "Refresh Now" stores the new timestamp and reloads, at most once per 10 s.
 *
 * The stored app_version (localStorage, default 0) and this page:
 * - On the first run (app_version 0) the server's timestamp is stored and nothing is shown.
 * - A page that has just loaded runs the version it was served (the document is never cached,
 *   and the worker only answers documents from its cache when the network fails), so the check
 *   at start only records the server's timestamp as this page's version (and stores it when it
 *   is newer than app_version) — it never announces the version the user is already running,
 *   e.g. after a deployment made while no tab was open.
 * - The hourly checks compare the server's timestamp with this page's version, which is the
 *   stored app_version unless another tab has stored a newer one since: that tab reloaded, this
 *   one still runs the old code and is told so.
 * Failures are logged at debug level only; the user never sees them.
 */
import { versionCheckInterval } from './constants.ts';
import { onUpdateAvailable } from '../sw/messages.ts';
import type { ServiceWorkerHooks } from './service-worker.ts';
import { fetchServerVersion, readAppVersion, reloadAllowed, reloadWithGuard, writeAppVersion, type DebugLog, type StorageLike } from './version-check.ts';

export type UpdateSource = 'service-worker' | 'version-check';
export type UpdateState =
  | { available: false; refreshing: false }
  | { available: true; refreshing: boolean; source: UpdateSource; timestamp: number | null };

export type CheckOutcome = 'first-run' | 'current' | 'newer' | 'failed';

export interface UpdateWatcherEnv {
  fetch: typeof fetch;
  localStorage: StorageLike;
  sessionStorage: StorageLike;
  now(): number;
  reload(): void;
  debug: DebugLog;
  intervalMs: number;
  /** Registers the service worker; absent where the build has none (dev, monolith, tests). */
  connectServiceWorker?: () => Promise<ServiceWorkerHooks>;
  /** Subscribes to the workers' UPDATE_AVAILABLE messages, from the start (before registering). */
  onWorkerUpdate?: (listener: () => void) => () => void;
}

const IDLE: UpdateState = { available: false, refreshing: false };

export class UpdateWatcher {
  private state: UpdateState = IDLE;
  private readonly listeners = new Set<() => void>();
  private pageVersion = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private unlisten: (() => void) | null = null;
  private worker: Promise<ServiceWorkerHooks | null> | null = null;
  private running = false;
  /** The check at start: the hourly ones wait for it, so they compare with this page's version. */
  private baseline: Promise<unknown> = Promise.resolve();

  private readonly env: UpdateWatcherEnv;

  constructor(env: UpdateWatcherEnv) {
    this.env = env;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): UpdateState => this.state;

  /** Starts watching (idempotent); returns the function that stops it. */
  start(): () => void {
    if (!this.running) {
      this.running = true;
      this.pageVersion = readAppVersion(this.env.localStorage);
      this.baseline = this.check('start');
      this.timer = setInterval(() => void this.check('interval'), this.env.intervalMs);
      this.unlisten = this.env.onWorkerUpdate?.(() => this.announce('service-worker', null)) ?? null;
      void this.serviceWorker().then((hooks) => {
        if (hooks?.waiting && this.running) this.announce('service-worker', null);
      });
    }
    return () => this.stop();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
  }

  /**
   * One version check. `start`: the page's own version, never announced. `interval`: also asks
   * the browser to look for a new service worker, whose install announces itself.
   */
  async check(mode: 'start' | 'interval' = 'interval'): Promise<CheckOutcome> {
    if (mode === 'interval') {
      void this.updateServiceWorker();
      await this.baseline;
    }
    let server: number;
    try {
      server = await fetchServerVersion(this.env.fetch, this.env.now());
    } catch (error) {
      this.env.debug('[atelier] update: version check failed', error);
      return 'failed';
    }
    const stored = readAppVersion(this.env.localStorage);
    if (stored === 0) {
      writeAppVersion(this.env.localStorage, server);
      this.pageVersion = server;
      return 'first-run';
    }
    if (mode === 'start') {
      this.pageVersion = server;
      if (server > stored) writeAppVersion(this.env.localStorage, server);
      return 'current';
    }
    if (server > this.pageVersion) {
      this.announce('version-check', server);
      return 'newer';
    }
    return 'current';
  }

  /** "Refresh Now": store the new timestamp, let a new worker take over, reload (guarded). */
  async refresh(): Promise<boolean> {
    if (!this.state.available || this.state.refreshing) return false;
    if (!reloadAllowed(this.env)) {
      this.env.debug('[atelier] update: refresh ignored, the page reloaded less than 10 s ago');
      return false;
    }
    const { timestamp } = this.state;
    this.set({ ...this.state, refreshing: true });
    if (timestamp !== null) writeAppVersion(this.env.localStorage, Math.max(timestamp, readAppVersion(this.env.localStorage)));
    const hooks = await this.serviceWorker();
    if (hooks) {
      try {
        await hooks.activateWaiting();
      } catch (error) {
        this.env.debug('[atelier] update: the new service worker could not take over', error);
      }
    }
    const reloaded = reloadWithGuard(this.env);
    if (!reloaded && this.state.available) this.set({ ...this.state, refreshing: false });
    return reloaded;
  }

  private announce(source: UpdateSource, timestamp: number | null): void {
    const current = this.state;
    if (current.available) {
      // Already shown: keep the newest timestamp either source knows.
      const newest = Math.max(current.timestamp ?? 0, timestamp ?? 0) || null;
      if (newest !== current.timestamp) this.set({ ...current, timestamp: newest });
      return;
    }
    this.set({ available: true, refreshing: false, source, timestamp });
  }

  private set(next: UpdateState): void {
    this.state = next;
    for (const l of this.listeners) l();
  }

  private serviceWorker(): Promise<ServiceWorkerHooks | null> {
    const connect = this.env.connectServiceWorker;
    if (!connect) return Promise.resolve(null);
    this.worker ??= connect().catch((error: unknown) => {
      this.env.debug('[atelier] update: service worker registration failed', error);
      return null;
    });
    return this.worker;
  }

  private async updateServiceWorker(): Promise<void> {
    const hooks = await this.serviceWorker();
    try {
      await hooks?.update();
    } catch (error) {
      this.env.debug('[atelier] update: service worker update check failed', error);
    }
  }
}

declare global {
  namespace NodeJS {
    interface ProcessEnv {
      /** Set by the shell build that has a service worker (shell/src/sw/rsbuild-plugin.ts). */
      ATELIER_SERVICE_WORKER_URL?: string;
    }
  }
}

/** A storage that may be missing or refuse access (privacy modes): then it remembers nothing. */
function storage(get: () => Storage): StorageLike {
  try {
    return get();
  } catch {
    return { getItem: () => null, setItem: () => undefined };
  }
}

/**
 * The worker's part of the watcher, in production builds that have one. Written as one `if` on
 * the build-time constants so that builds without a worker (dev, the monolith) drop the
 * workbox-window chunk altogether.
 */
function serviceWorkerEnv(debug: DebugLog): Pick<UpdateWatcherEnv, 'connectServiceWorker' | 'onWorkerUpdate'> {
  if (process.env.NODE_ENV === 'production' && process.env.ATELIER_SERVICE_WORKER_URL) {
    const url = process.env.ATELIER_SERVICE_WORKER_URL;
    if ('serviceWorker' in navigator) {
      return {
        connectServiceWorker: async () => (await import('./service-worker.ts')).connectServiceWorker(url, debug),
        onWorkerUpdate: (listener) => onUpdateAvailable(navigator.serviceWorker, listener),
      };
    }
  }
  return {};
}

/** The page's watcher: real fetch, storage and timers; the worker only in production builds. */
export function createBrowserUpdateWatcher(): UpdateWatcher {
  const debug: DebugLog = (message, ...details) => console.debug(message, ...details);
  return new UpdateWatcher({
    fetch: (input, init) => window.fetch(input, init),
    localStorage: storage(() => window.localStorage),
    sessionStorage: storage(() => window.sessionStorage),
    now: () => Date.now(),
    reload: () => window.location.reload(),
    debug,
    intervalMs: versionCheckInterval(window),
    ...serviceWorkerEnv(debug),
  });
}
