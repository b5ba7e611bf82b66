/**
 * The page's side of the service worker: registration through workbox-window, update checks,
 * and handing control to a waiting worker. Loaded lazily, only by production builds that have a
 * worker (see createBrowserUpdateWatcher), so workbox-window never weighs on the first load.
 */
import { Workbox } from 'workbox-window';
import { SKIP_WAITING } from '../sw/messages.ts';
import type { DebugLog } from './version-check.ts';

export interface ServiceWorkerHooks {
  /**
   * A new deployment's worker was already installed and waiting when this page registered: its
   * UPDATE_AVAILABLE went to an earlier page (or before this one listened).
   */
  readonly waiting: boolean;
  /** Asks the browser to look for a new /sw.js now (it also does on every navigation). */
  update(): Promise<void>;
  /**
   * Lets a new worker take over before the page reloads, so the reloaded page is served by the
   * new deployment's worker (a plain reload keeps the old one in control). Waits for a worker
   * still installing, then sends it SKIP_WAITING and waits for it to control the page. Each
   * step is bounded by a timeout; resolves whether a worker took over.
   */
  activateWaiting(): Promise<boolean>;
}

const UPDATE_TIMEOUT_MS = 3000;
const INSTALL_TIMEOUT_MS = 10_000;
const CONTROL_TIMEOUT_MS = 3000;

function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function settled(worker: ServiceWorker): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => worker.state !== 'installing' && resolve();
    worker.addEventListener('statechange', done);
    done();
  });
}

export async function connectServiceWorker(scriptUrl: string, debug: DebugLog): Promise<ServiceWorkerHooks> {
  const container = navigator.serviceWorker;
  const wb = new Workbox(scriptUrl);
  // workbox-window registers once the page has loaded, so the worker's precaching never competes
  // with the first render.
  const registration = await wb.register();
  if (!registration) throw new Error('the service worker could not be registered');

  return {
    waiting: registration.waiting !== null && container.controller !== null,

    async update() {
      await registration.update();
    },

    async activateWaiting() {
      if (!container.controller) return false;
      try {
        // The check that found the new version may have run before the worker's own check.
        await within(registration.update(), UPDATE_TIMEOUT_MS, undefined);
      } catch (error) {
        debug('[atelier] update: service worker update check failed', error);
      }
      const installing = registration.installing;
      if (installing) await within(settled(installing), INSTALL_TIMEOUT_MS, undefined);
      const waiting = registration.waiting;
      if (!waiting) return false;
      const controlled = new Promise<boolean>((resolve) => container.addEventListener('controllerchange', () => resolve(true), { once: true }));
      waiting.postMessage({ type: SKIP_WAITING });
      return within(controlled, CONTROL_TIMEOUT_MS, false);
    },
  };
}
