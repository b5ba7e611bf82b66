import type { LayoutName, RemoteMount } from './remote-module.ts';

/**
 * The remote registry (`/remotes.json`): which version of each remote is live. Written only by
 * the release and rollback commands, atomically; read by the shell at start and on Retry.
 */
export interface RegistryVersion {
  version: string;
  /** URL of the version's mf-manifest.json, absolute or relative to the site root. */
  entry: string;
  releasedAt: string;
}

export interface RegistryEntry extends RegistryVersion {
  mounts: RemoteMount[];
  /** The last good version before this one; the shell falls back to it when a load fails. */
  previous: RegistryVersion | null;
  /** Older releases, newest first, that rollback can return to. */
  history: RegistryVersion[];
}

export interface RemoteRegistry {
  schema: 1;
  remotes: Record<string, RegistryEntry>;
}

export class RegistryError extends Error {
  override name = 'RegistryError';
}

const LAYOUTS: readonly LayoutName[] = ['default', 'dashboard'];

function isVersion(v: unknown): v is RegistryVersion {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return typeof r.version === 'string' && typeof r.entry === 'string' && typeof r.releasedAt === 'string';
}

function isMount(m: unknown): m is RemoteMount {
  if (!m || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  return typeof r.path === 'string' && r.path.startsWith('/') && LAYOUTS.includes(r.layout as LayoutName);
}

/** Validates untrusted registry JSON; throws RegistryError naming the first bad field. */
export function parseRegistry(json: unknown): RemoteRegistry {
  if (!json || typeof json !== 'object') throw new RegistryError('registry is not an object');
  const r = json as Record<string, unknown>;
  if (r.schema !== 1) throw new RegistryError(`unsupported registry schema ${String(r.schema)}`);
  if (!r.remotes || typeof r.remotes !== 'object') throw new RegistryError('registry has no remotes');
  const remotes: Record<string, RegistryEntry> = {};
  for (const [name, raw] of Object.entries(r.remotes as Record<string, unknown>)) {
    if (!isVersion(raw)) throw new RegistryError(`remote ${name}: missing version, entry or releasedAt`);
    const e = raw as unknown as Record<string, unknown>;
    if (!Array.isArray(e.mounts) || !e.mounts.every(isMount)) throw new RegistryError(`remote ${name}: bad mounts`);
    if (e.previous != null && !isVersion(e.previous)) throw new RegistryError(`remote ${name}: bad previous`);
    const history = Array.isArray(e.history) ? e.history.filter(isVersion) : [];
    remotes[name] = {
      version: raw.version,
      entry: raw.entry,
      releasedAt: raw.releasedAt,
      mounts: e.mounts as RemoteMount[],
      previous: (e.previous as RegistryVersion | null | undefined) ?? null,
      history,
    };
  }
  return { schema: 1, remotes };
}

export interface MountMatch {
  remote: string;
  entry: RegistryEntry;
  mount: RemoteMount;
}

/**
 * Finds the remote owning a language-less path: the longest mount that equals the path or is a
 * parent of it. `/` owns only `/` itself, so unknown paths match nothing and get the 404 screen
 * without loading any remote.
 */
export function findMount(registry: RemoteRegistry, path: string): MountMatch | null {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  let best: MountMatch | null = null;
  for (const [remote, entry] of Object.entries(registry.remotes)) {
    for (const mount of entry.mounts) {
      const hit = mount.path === '/' ? clean === '/' : clean === mount.path || clean.startsWith(`${mount.path}/`);
      if (hit && (!best || mount.path.length > best.mount.path.length)) best = { remote, entry, mount };
    }
  }
  return best;
}

/** Pages the shell itself serves under every language prefix (not owned by any remote). */
export const SHELL_PATHS: readonly string[] = ['/test'];

/** Whether a language-less path is a page of the app: the shell's own or a remote's. */
export function isAppPath(registry: RemoteRegistry, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return SHELL_PATHS.includes(clean) || findMount(registry, clean) !== null;
}
