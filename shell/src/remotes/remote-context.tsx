import { createContext, useContext, useSyncExternalStore } from 'react';
import type { RemoteLoader, RemoteStatus } from './remote-loader.ts';

export const RemoteLoaderContext = createContext<RemoteLoader | null>(null);

export function useRemoteLoader(): RemoteLoader {
  const loader = useContext(RemoteLoaderContext);
  if (!loader) throw new Error('RemoteLoaderContext is missing');
  return loader;
}

export function useRemoteStatus(remote: string): RemoteStatus {
  const loader = useRemoteLoader();
  return useSyncExternalStore(
    (l) => loader.subscribe(l),
    () => loader.status(remote),
  );
}
