/**
 * The messages between the page and the service worker, shared by both sides. Keep this file
 * free of imports: it is bundled into the worker as well as the page.
 */

/** Worker → page: a new deployment's worker has installed while an older one controls the page. */
export const UPDATE_AVAILABLE = 'UPDATE_AVAILABLE';
/** Page → waiting worker: take over now (the user clicked "Refresh Now"). workbox-window's own message. */
export const SKIP_WAITING = 'SKIP_WAITING';

export interface UpdateAvailableMessage {
  type: typeof UPDATE_AVAILABLE;
}

export function isUpdateAvailable(data: unknown): data is UpdateAvailableMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === UPDATE_AVAILABLE;
}

/**
 * Page side: calls `listener` each time a newly installed worker announces UPDATE_AVAILABLE.
 * Listened on the container, from the shell's start, rather than through workbox-window: that
 * one only forwards messages from the worker it registered itself, and a later deployment's
 * worker is not that one.
 */
export function onUpdateAvailable(container: Pick<ServiceWorkerContainer, 'addEventListener' | 'removeEventListener'>, listener: () => void): () => void {
  const onMessage = (event: MessageEvent) => {
    if (isUpdateAvailable(event.data)) listener();
  };
  container.addEventListener('message', onMessage);
  return () => container.removeEventListener('message', onMessage);
}

/** Where the worker is served from, and the only scope it controls. */
export const SERVICE_WORKER_URL = '/sw.js';
/** The precached document the worker answers navigations with when the network fails. */
export const OFFLINE_DOCUMENT = '/index.html';
