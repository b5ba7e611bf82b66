import { parseRegistry, type RemoteRegistry } from '@atelier/contract';

export { findMount } from '@atelier/contract';

declare global {
  interface Window {
    /** The registry the server inlines into index.html to save a round trip. */
    __ATELIER_REGISTRY__?: unknown;
  }
}

export const REGISTRY_URL = '/remotes.json';

/** Always asks the server: the registry changes on every release and is never cached. */
export async function fetchRegistry(fetchImpl: typeof fetch = fetch): Promise<RemoteRegistry> {
  const res = await fetchImpl(`${REGISTRY_URL}?t=${Date.now()}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`registry answered ${res.status}`);
  return parseRegistry(await res.json());
}

/** The registry at start: inlined when the server provided it, fetched otherwise. */
export async function initialRegistry(): Promise<RemoteRegistry> {
  const inline = typeof window !== 'undefined' ? window.__ATELIER_REGISTRY__ : undefined;
  if (inline) {
    try {
      return parseRegistry(inline);
    } catch {
      // fall through to the network copy
    }
  }
  return fetchRegistry();
}

