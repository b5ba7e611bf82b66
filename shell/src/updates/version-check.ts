/**
 * The pieces of the update check that touch the outside world, each with its dependencies
 * passed in so the unit tests drive them without a browser.
 */
import { APP_VERSION_KEY, RELOAD_GUARD_KEY, RELOAD_GUARD_MS, VERSION_URL } from './constants.ts';

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;
export type DebugLog = (message: string, ...details: unknown[]) => void;

/** The stored app_version: the last known version timestamp, 0 when none (or unreadable). */
export function readAppVersion(storage: StorageLike): number {
  try {
    const value = Number(storage.getItem(APP_VERSION_KEY) ?? 0);
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0; // storage disabled: every check is a first run, which shows nothing
  }
}

export function writeAppVersion(storage: StorageLike, timestamp: number): void {
  try {
    storage.setItem(APP_VERSION_KEY, String(timestamp));
  } catch {
    // storage full or disabled: nothing to remember, nothing to break
  }
}

/**
 * GET /version.json?t=<now> (the query defeats every cache on the way) and its `timestamp`.
 * Throws on a network error, a non-2xx answer or a body without a numeric timestamp.
 */
export async function fetchServerVersion(fetchImpl: typeof fetch, now: number): Promise<number> {
  const res = await fetchImpl(`${VERSION_URL}?t=${now}`, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${VERSION_URL} answered ${res.status}`);
  const body = (await res.json()) as { timestamp?: unknown } | null;
  const timestamp = body?.timestamp;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) throw new Error(`${VERSION_URL} has no numeric timestamp`);
  return timestamp;
}

export interface ReloadGuardEnv {
  sessionStorage: StorageLike;
  now(): number;
  reload(): void;
  debug: DebugLog;
}

function lastReload(env: ReloadGuardEnv): number {
  try {
    return Number(env.sessionStorage.getItem(RELOAD_GUARD_KEY) ?? 0) || 0;
  } catch {
    return 0;
  }
}

/** False while a reload for an update happened in this tab less than 10 s ago. */
export function reloadAllowed(env: ReloadGuardEnv): boolean {
  const since = env.now() - lastReload(env);
  return since < 0 || since >= RELOAD_GUARD_MS;
}

/**
 * Reloads the page unless it already did so less than 10 s ago (a new version that keeps
 * announcing itself must not trap the tab in a reload loop). Returns whether it reloaded.
 */
export function reloadWithGuard(env: ReloadGuardEnv): boolean {
  if (!reloadAllowed(env)) {
    env.debug(`[atelier] update: reload skipped, the page reloaded less than ${RELOAD_GUARD_MS / 1000} s ago`);
    return false;
  }
  try {
    env.sessionStorage.setItem(RELOAD_GUARD_KEY, String(env.now()));
  } catch {
    // without session storage there is no guard, but the user asked for the reload
  }
  env.reload();
  return true;
}
