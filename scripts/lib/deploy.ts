/**
 * Publishing to the deploy root the server serves. A remote version is copied once under
 * remotes/<name>/<version>/ and never overwritten; switching versions rewrites only the
 * registry, atomically (write a temporary file, then rename over remotes.json).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRegistry, type RegistryEntry, type RegistryVersion, type RemoteMount, type RemoteRegistry } from '@atelier/contract';

export function registryPath(deployDir: string): string {
  return join(deployDir, 'remotes.json');
}

export function readRegistry(deployDir: string): RemoteRegistry {
  const p = registryPath(deployDir);
  if (!existsSync(p)) return { schema: 1, remotes: {} };
  return parseRegistry(JSON.parse(readFileSync(p, 'utf8')));
}

export function writeRegistryAtomically(deployDir: string, registry: RemoteRegistry): void {
  mkdirSync(deployDir, { recursive: true });
  const target = registryPath(deployDir);
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(registry, null, 2)}\n`);
  renameSync(tmp, target);
}

/** Serialises registry edits between concurrent release commands. */
export function withRegistryLock<T>(deployDir: string, fn: () => T): T {
  mkdirSync(deployDir, { recursive: true });
  const lock = join(deployDir, '.registry.lock');
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`registry is locked (${lock}); remove it if no release is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    return fn();
  } finally {
    rmdirSync(lock);
  }
}

export function versionDir(deployDir: string, remote: string, version: string): string {
  if (!/^[0-9A-Za-z.+-]+$/.test(version)) throw new Error(`invalid version "${version}"`);
  return join(deployDir, 'remotes', remote, version);
}

const SOURCE_HASH = '.source-hash';

/** The source fingerprint a published version was built from, or null when not published. */
export function publishedSourceHash(deployDir: string, remote: string, version: string): string | null {
  const p = join(versionDir(deployDir, remote, version), SOURCE_HASH);
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

/**
 * Copies a built remote into its version folder, through a staging folder and a rename, so a
 * half-copied version is never visible. A published version is never overwritten: its files
 * are served as immutable.
 */
export function publishRemoteFiles(deployDir: string, remote: string, version: string, distDir: string, sourceHash: string): 'copied' | 'exists' {
  if (!existsSync(join(distDir, 'mf-manifest.json'))) throw new Error(`${distDir} has no mf-manifest.json: build the remote first`);
  const target = versionDir(deployDir, remote, version);
  if (existsSync(join(target, 'mf-manifest.json'))) return 'exists';
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  cpSync(distDir, staging, { recursive: true });
  rmSync(join(staging, 'index.html'), { force: true });
  writeFileSync(join(staging, SOURCE_HASH), sourceHash);
  renameSync(staging, target);
  return 'copied';
}

/** Makes `version` the live one; the one it replaces becomes `previous` and joins the history. */
export function switchTo(deployDir: string, remote: string, version: string, mounts: RemoteMount[]): RegistryEntry {
  return withRegistryLock(deployDir, () => {
    const registry = readRegistry(deployDir);
    const current = registry.remotes[remote];
    const next: RegistryVersion = {
      version,
      entry: `/remotes/${remote}/${version}/mf-manifest.json`,
      releasedAt: new Date().toISOString(),
    };
    if (current?.version === version) {
      registry.remotes[remote] = { ...current, mounts };
    } else {
      const history = current ? [toVersion(current), ...current.history.filter((h) => h.version !== version && h.version !== current.version)] : [];
      registry.remotes[remote] = { ...next, mounts, previous: history[0] ?? null, history: history.slice(0, 10) };
    }
    writeRegistryAtomically(deployDir, registry);
    return registry.remotes[remote]!;
  });
}

/** Switches back to the previous version. Returns the entry now live. */
export function rollback(deployDir: string, remote: string): RegistryEntry {
  return withRegistryLock(deployDir, () => {
    const registry = readRegistry(deployDir);
    const current = registry.remotes[remote];
    if (!current) throw new Error(`remote "${remote}" is not in the registry`);
    const [back, ...older] = current.history;
    if (!back) throw new Error(`remote "${remote}" has no earlier version to roll back to`);
    registry.remotes[remote] = { ...back, mounts: current.mounts, previous: older[0] ?? null, history: older };
    writeRegistryAtomically(deployDir, registry);
    return registry.remotes[remote]!;
  });
}

function toVersion(e: RegistryVersion): RegistryVersion {
  return { version: e.version, entry: e.entry, releasedAt: e.releasedAt };
}

const SHELL_LIST = '.shell-files.json';

/** Replaces the shell's files in the deploy root, leaving remotes/ and the registry alone. */
export function publishShell(deployDir: string, distDir: string, timestamp: number): void {
  mkdirSync(deployDir, { recursive: true });
  const listPath = join(deployDir, SHELL_LIST);
  const old: string[] = existsSync(listPath) ? (JSON.parse(readFileSync(listPath, 'utf8')) as string[]) : [];
  const fresh = listFiles(distDir);
  for (const f of fresh) {
    mkdirSync(dirname(join(deployDir, f)), { recursive: true });
    cpSync(join(distDir, f), join(deployDir, f));
  }
  const keep = new Set(fresh);
  for (const f of old) if (!keep.has(f)) rmSync(join(deployDir, f), { force: true });
  writeFileSync(join(deployDir, 'version.json'), `${JSON.stringify({ timestamp })}\n`);
  writeFileSync(listPath, JSON.stringify([...fresh, 'version.json']));
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? listFiles(dir, join(prefix, d.name)) : [join(prefix, d.name)],
  );
}
