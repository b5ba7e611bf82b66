/**
 * The shell's service worker, served at /sw.js. Built from workbox-* modules by the `sw`
 * environment of the shell's Rsbuild build (see ./rsbuild-plugin.ts, which also injects the
 * precache manifest in place of `self.__WB_MANIFEST`).
 *
 * - Precaches the shell's own build output: index.html and the content-hashed /static files.
 *   Never the remotes (they are released independently and served immutable by version), and
 *   never /remotes.json, /version.json, /config.json or /api/*: no route below caches anything
 *   at run time, so every request that is not a precached shell file goes to the network as if
 *   there were no worker.
 * - Navigations go to the network first (the server inlines the live remote registry into the
 *   document and answers unknown routes with a 404), and fall back to the precached index.html
 *   only when the network fails: the shell then starts offline.
 * - When it installs while an older worker controls the page (a new deployment), it tells every
 *   window UPDATE_AVAILABLE and waits; the page's "Refresh Now" sends SKIP_WAITING.
 */
import { clientsClaim } from 'workbox-core';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, PrecacheController, PrecacheRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { OFFLINE_DOCUMENT, SKIP_WAITING, UPDATE_AVAILABLE, type UpdateAvailableMessage } from './messages.ts';

// The project type-checks against the DOM library; these are the few worker types used here
// (lib "webworker" cannot be mixed with "DOM" in one program).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface WindowClient {
  postMessage(message: UpdateAvailableMessage): void;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: { matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  /** Replaced at build time by the precache manifest. */
  readonly __WB_MANIFEST: PrecacheEntry[];
}
declare const self: WorkerScope;

const precache = new PrecacheController();
precache.addToCacheList(self.__WB_MANIFEST);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await precache.install(event);
      // An active worker already exists: this one is a new deployment, and it waits until the
      // user chooses to refresh. Announced only once its precache is complete, so "Refresh Now"
      // never activates a half-installed worker.
      if (self.registration.active) {
        const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
        for (const w of windows) w.postMessage({ type: UPDATE_AVAILABLE });
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  // Drops the previous deployment's entries that this manifest no longer lists.
  event.waitUntil(precache.activate(event));
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === SKIP_WAITING) event.waitUntil(self.skipWaiting());
});

// The first worker takes the page it was registered from, so that page is already offline-ready.
clientsClaim();
cleanupOutdatedCaches();
// Starts the navigation request while the worker boots; NetworkOnly uses the preload response.
navigationPreload.enable();

// Routes match in registration order: navigations first, so a document is never answered from
// the precache while the network works (the precached copy's inlined registry may be stale).
registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      plugins: [{ handlerDidError: async () => (await precache.matchPrecache(OFFLINE_DOCUMENT)) ?? undefined }],
    }),
    // Documents that are not the app: the API, the remotes' files, any file with an extension
    // (/sitemap.xml, /api/openapi.json). Workbox matches these against path + query.
    { denylist: [/^\/(api|v1|remotes)(\/|\?|$)/, /^[^?]*\.[^/?]*(\?|$)/] },
  ),
);
// The shell's hashed files: cache first, from the precache. No directory index or clean URLs,
// so "/" or "/pricing" can never match the precached index.html.
registerRoute(new PrecacheRoute(precache, { directoryIndex: '', cleanURLs: false }));
