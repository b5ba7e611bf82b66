/**
 * Committed changes that in-process caches must hear about, and the read-through cache that
 * listens to them.
 *
 * Domain functions announce a change right after it is committed (never inside a transaction that
 * could still roll back). Announcing is synchronous: when the function returns, every cache built
 * on that database handle has already dropped what the change made stale, so a request answered
 * afterwards reads the new state. Other processes hear it through Redis (`relayChanges` in
 * jobs/taskEvents.ts).
 */
import type { Database } from '../db/client.ts';

export type DataChange =
  /** A task row changed or went (status, progress, visibility, …). */
  | { kind: 'task'; id: string }
  /** Whether a user's API keys work may have changed: a key paused, resumed or deleted, the owner disabled. */
  | { kind: 'keys'; userId: string }
  /**
   * Anything may have changed: this process lost (`live: false`) or regained (`live: true`) the
   * announcements of other processes. Caches empty themselves, and serve nothing while not live.
   */
  | { kind: 'reset'; live: boolean };

type Listener = (change: DataChange, remote: boolean) => void;
const listeners = new WeakMap<Database, Set<Listener>>();

/** `remote`: heard from another process (not to be sent on again). */
export function announce(db: Database, change: DataChange, remote = false): void {
  for (const listener of listeners.get(db) ?? []) listener(change, remote);
}

export function onChange(db: Database, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * How long a cached row may be served. Where every change is heard (one process owns the embedded
 * database, or the nodes share their changes through Redis) an entry lives until a change drops
 * it; the age limit only bounds memory. On PostgreSQL without Redis other nodes' changes go
 * unheard, so an entry lives one second: that is how late another node's change can show there.
 */
export function cacheMaxAgeMs(config: { databaseUrl: string | null; generation: { redisUrl: string | null } }): number {
  return config.databaseUrl === null || config.generation.redisUrl ? 60_000 : 1_000;
}

export interface ReadThroughCacheOptions<V> {
  maxAgeMs: number;
  maxEntries?: number;
  /** Which entries a change makes stale: one key, those whose value matches, or none (null). */
  stale(change: DataChange): string | ((value: V) => boolean) | null;
}

/**
 * Values loaded on a miss and kept until a change makes them stale (or they age out). A load that
 * overlapped a change is returned but not kept, and concurrent misses of a key share one load
 * unless a change came between them: nothing read before a change is served after it.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, { version: number; value: Promise<V | undefined> }>();
  /** Counts the changes that touched this cache. */
  private version = 0;
  private live = true;
  private readonly options: ReadThroughCacheOptions<V>;

  constructor(db: Database, options: ReadThroughCacheOptions<V>) {
    this.options = options;
    onChange(db, (change) => this.drop(change));
  }

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.options.maxAgeMs) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending && pending.version === this.version) return pending.value;
    const version = this.version;
    const value: Promise<V | undefined> = load()
      .then((v) => {
        if (v === undefined) this.entries.delete(key);
        else if (version === this.version && this.live) this.keep(key, v);
        return v;
      })
      .finally(() => {
        if (this.loading.get(key)?.value === value) this.loading.delete(key);
      });
    this.loading.set(key, { version, value });
    return value;
  }

  private keep(key: string, value: V): void {
    this.entries.delete(key);
    // Oldest first: the map keeps insertion order.
    if (this.entries.size >= (this.options.maxEntries ?? 10_000)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: Date.now() });
  }

  private drop(change: DataChange): void {
    if (change.kind === 'reset') {
      this.version++;
      this.live = change.live;
      this.entries.clear();
      return;
    }
    const stale = this.options.stale(change);
    if (stale === null) return;
    this.version++;
    if (typeof stale === 'string') this.entries.delete(stale);
    else for (const [key, entry] of this.entries) if (stale(entry.value)) this.entries.delete(key);
  }
}
