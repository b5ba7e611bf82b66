import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { federationName } from '@atelier/contract';
import type { LoadModule } from './remote-loader.ts';

/** Loads a remote's `./module` through the Module Federation runtime from its manifest URL. */
export const loadRemoteModule: LoadModule = async (remote, entryUrl, { fresh }) => {
  const name = federationName(remote);
  const entry = new URL(entryUrl, window.location.href).href;
  // `force` drops what the runtime cached for this name (a failed or older entry).
  registerRemotes([{ name, entry }], { force: fresh });
  const loaded = await loadRemote<{ default: unknown }>(`${name}/module`);
  if (!loaded) throw new Error(`${name}/module resolved to nothing`);
  return loaded.default ?? loaded;
};
