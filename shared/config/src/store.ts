import { createStore, useStore } from 'zustand';
import { applyTheme, parsePublicConfig, type PublicConfig } from './index.ts';

/**
 * The public runtime config (`/config.json`) of this page, null until it has answered. This
 * package is a federated singleton: the shell loads it once, remotes read it.
 */
export const publicConfigStore = createStore<{ config: PublicConfig | null }>(() => ({ config: null }));

export async function loadPublicConfig(): Promise<void> {
  let raw: unknown = {};
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) raw = await res.json();
  } catch (err) {
    console.debug('[atelier] /config.json unavailable, using defaults', err);
  }
  const config = parsePublicConfig(raw);
  applyTheme(config);
  publicConfigStore.setState({ config });
}

export function usePublicConfig(): PublicConfig | null {
  return useStore(publicConfigStore, (s) => s.config);
}
