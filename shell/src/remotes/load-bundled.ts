import type { LoadModule } from './remote-loader.ts';

/**
 * The monolith build (web benchmark baseline): the same remotes bundled into the shell as
 * ordinary lazy chunks, no Module Federation.
 */
const bundled: Record<string, () => Promise<{ default: unknown }>> = {
  'public-site': () => import('@atelier/remote-public-site/module'),
  account: () => import('@atelier/remote-account/module'),
  image: () => import('@atelier/remote-image/module'),
  video: () => import('@atelier/remote-video/module'),
  music: () => import('@atelier/remote-music/module'),
  chat: () => import('@atelier/remote-chat/module'),
  'api-keys': () => import('@atelier/remote-api-keys/module'),
};

export const loadRemoteModule: LoadModule = async (remote) => {
  const load = bundled[remote];
  if (!load) throw new Error(`no bundled remote ${remote}`);
  return (await load()).default;
};
