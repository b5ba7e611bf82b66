import { checkContract, type RegistryVersion, type RemoteModule, type RemoteRegistry } from '@atelier/contract';

/** Loads the `./module` expose of one remote version; `fresh` discards what an earlier load cached. */
export type LoadModule = (remote: string, entryUrl: string, options: { fresh: boolean }) => Promise<unknown>;

export type RemoteFailure =
  | { kind: 'unavailable'; cause: unknown }
  | { kind: 'incompatible'; expected: number; actual: number };

export class RemoteLoadError extends Error {
  override name = 'RemoteLoadError';
  readonly remote: string;
  readonly failure: RemoteFailure;
  constructor(remote: string, failure: RemoteFailure) {
    super(
      failure.kind === 'incompatible'
        ? `remote ${remote} was built for contract ${failure.actual}, the shell speaks ${failure.expected}`
        : `remote ${remote} could not be loaded: ${String((failure.cause as Error)?.message ?? failure.cause)}`,
    );
    this.remote = remote;
    this.failure = failure;
  }
}

export interface LoadedRemote {
  module: RemoteModule;
  /** The registry version actually running (the previous one after a fallback). */
  version: string;
  fellBack: boolean;
}

export type RemoteStatus =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; version: string; fellBack: boolean }
  | { state: 'failed'; failure: RemoteFailure['kind'] };

export interface RemoteLoaderOptions {
  registry: RemoteRegistry;
  load: LoadModule;
  fetchRegistry: () => Promise<RemoteRegistry>;
  /** Runs before a loaded module is handed out (the shell loads its translations here). */
  prepare?: (module: RemoteModule) => Promise<void>;
  /** Pause before the one automatic retry of a failed load, in ms. */
  retryDelayMs?: number;
}

/**
 * Loads remotes once per page and on demand. A failed load is retried once, then falls back to
 * the registry's previous good version; Retry re-reads the registry, so a release or rollback
 * made since the page opened is picked up without a full reload.
 */
export class RemoteLoader {
  private registry: RemoteRegistry;
  private readonly loads = new Map<string, Promise<LoadedRemote>>();
  private readonly statuses = new Map<string, RemoteStatus>();
  private readonly listeners = new Set<() => void>();
  /** Entries already handed to the federation runtime, so a different one is loaded fresh. */
  private readonly loadedEntry = new Map<string, string>();

  private readonly options: RemoteLoaderOptions;

  constructor(options: RemoteLoaderOptions) {
    this.options = options;
    this.registry = options.registry;
  }

  get currentRegistry(): RemoteRegistry {
    return this.registry;
  }

  status(remote: string): RemoteStatus {
    return this.statuses.get(remote) ?? { state: 'idle' };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The remote's module, loading it on first use. */
  get(remote: string): Promise<LoadedRemote> {
    let p = this.loads.get(remote);
    if (!p) {
      p = this.loadFromRegistry(remote);
      this.loads.set(remote, p);
    }
    return p;
  }

  /** Re-reads the registry and loads the remote again, bypassing every cache. */
  async retry(remote: string): Promise<LoadedRemote> {
    try {
      this.registry = await this.options.fetchRegistry();
    } catch {
      // Keep the registry we have; the load below reports the failure.
    }
    this.loadedEntry.delete(remote);
    const p = this.loadFromRegistry(remote, true);
    this.loads.set(remote, p);
    return p;
  }

  private setStatus(remote: string, status: RemoteStatus) {
    this.statuses.set(remote, status);
    for (const l of this.listeners) l();
  }

  private async loadFromRegistry(remote: string, fresh = false): Promise<LoadedRemote> {
    this.setStatus(remote, { state: 'loading' });
    const entry = this.registry.remotes[remote];
    try {
      if (!entry) throw new RemoteLoadError(remote, { kind: 'unavailable', cause: new Error('not in the registry') });
      let result: LoadedRemote;
      try {
        result = await this.loadVersion(remote, entry, fresh, true);
      } catch (err) {
        if (!entry.previous) throw err;
        // The registry names a previous good version: serve that rather than an error.
        result = await this.loadVersion(remote, entry.previous, true, false);
        result.fellBack = true;
      }
      this.setStatus(remote, { state: 'ready', version: result.version, fellBack: result.fellBack });
      return result;
    } catch (err) {
      const failure = err instanceof RemoteLoadError ? err.failure : ({ kind: 'unavailable', cause: err } as const);
      this.setStatus(remote, { state: 'failed', failure: failure.kind });
      // A failed load is not cached: the next visit tries again.
      this.loads.delete(remote);
      throw err instanceof RemoteLoadError ? err : new RemoteLoadError(remote, failure);
    }
  }

  private async loadVersion(remote: string, version: RegistryVersion, fresh: boolean, retryOnce: boolean): Promise<LoadedRemote> {
    let value: unknown;
    try {
      value = await this.loadOnce(remote, version.entry, fresh);
    } catch (err) {
      if (!retryOnce) throw new RemoteLoadError(remote, { kind: 'unavailable', cause: err });
      await new Promise((r) => setTimeout(r, this.options.retryDelayMs ?? 250));
      try {
        value = await this.loadOnce(remote, version.entry, true);
      } catch (again) {
        throw new RemoteLoadError(remote, { kind: 'unavailable', cause: again });
      }
    }
    const check = checkContract(value);
    if (!check.ok) {
      throw new RemoteLoadError(
        remote,
        check.reason === 'incompatible'
          ? { kind: 'incompatible', expected: check.expected, actual: check.actual }
          : { kind: 'unavailable', cause: new Error('the remote did not export a RemoteModule') },
      );
    }
    const module = value as RemoteModule;
    await this.options.prepare?.(module);
    return { module, version: version.version, fellBack: false };
  }

  private async loadOnce(remote: string, entryUrl: string, fresh: boolean): Promise<unknown> {
    const known = this.loadedEntry.get(remote);
    const mustRefresh = fresh || (known !== undefined && known !== entryUrl);
    this.loadedEntry.set(remote, entryUrl);
    try {
      return await this.options.load(remote, entryUrl, { fresh: mustRefresh });
    } catch (err) {
      // Whatever the runtime cached of a failed entry must not be reused.
      this.loadedEntry.delete(remote);
      throw err;
    }
  }
}
