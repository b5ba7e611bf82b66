import type { RouteObject } from 'react-router';

/**
 * The major version of the shell/remote contract. Bump it only for a breaking change of
 * `RemoteModule` or of the event map; the shell refuses remotes built for another major.
 * The literal type makes every remote fail its type check until it is updated.
 */
export const CONTRACT_MAJOR = 1;
export type ContractMajor = typeof CONTRACT_MAJOR;

/** The ten interface languages, in the order the language switcher shows them. */
export const LANGUAGES = ['en', 'zh', 'ru', 'de', 'fr', 'ja', 'ko', 'es', 'pt', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const REMOTE_NAMES = ['public-site', 'account', 'image', 'video', 'music', 'chat', 'api-keys'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

export type LayoutName = 'default' | 'dashboard';

/** Where a remote mounts in the shell. Declared in the remote's package.json (`atelier.mounts`). */
export interface RemoteMount {
  /** Absolute path without language prefix, e.g. `/dashboard/image`. */
  path: string;
  layout: LayoutName;
}

export interface NavigationItem {
  /** Path relative to the language root, e.g. `dashboard/image/create/text-to-image`. */
  to: string;
  /** Key in the remote's own i18n namespace. */
  labelKey: string;
}

export interface RemoteI18n {
  namespace: string;
  /** One lazy loader per language: the shell loads only the language in use. */
  load: Record<Language, () => Promise<{ default: Record<string, unknown> } | Record<string, unknown>>>;
}

export interface RemoteModule {
  name: RemoteName | (string & {});
  version: string;
  contract: ContractMajor;
  /**
   * Route objects with paths relative to the language root (`dashboard/image`), so the shell
   * mounts them under every language prefix without the remote knowing about prefixes. Pages
   * are lazy components, so a remote's first screen costs only what it shows.
   */
  routes: RouteObject[];
  i18n: RemoteI18n;
  navigation?: NavigationItem[];
}

/** Identity at run time; at compile time it checks a remote against the contract. */
export function defineRemoteModule(module: RemoteModule): RemoteModule {
  return module;
}

export type ContractCheck =
  | { ok: true }
  | { ok: false; reason: 'not-a-module' }
  | { ok: false; reason: 'incompatible'; expected: number; actual: number };

/** Checks a value loaded from a remote's `./module` expose at run time. */
export function checkContract(value: unknown): ContractCheck {
  if (!value || typeof value !== 'object') return { ok: false, reason: 'not-a-module' };
  const m = value as Partial<RemoteModule>;
  if (typeof m.contract !== 'number' || !Array.isArray(m.routes) || !m.i18n || typeof m.name !== 'string') {
    return { ok: false, reason: 'not-a-module' };
  }
  if (m.contract !== CONTRACT_MAJOR) {
    return { ok: false, reason: 'incompatible', expected: CONTRACT_MAJOR, actual: m.contract };
  }
  return { ok: true };
}

/** The Module Federation container name of a remote (a JS identifier). */
export function federationName(remote: string): string {
  return `atelier_${remote.replace(/[^a-z0-9]/gi, '_')}`;
}
