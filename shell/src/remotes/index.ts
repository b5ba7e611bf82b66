export { RemoteLoader, RemoteLoadError } from './remote-loader.ts';
export type { LoadModule, LoadedRemote, RemoteStatus } from './remote-loader.ts';
export { initialRegistry, fetchRegistry, findMount } from './registry.ts';
export { RemoteLoaderContext, useRemoteLoader, useRemoteStatus } from './remote-context.tsx';
export { RemoteOutlet } from './remote-outlet.tsx';
