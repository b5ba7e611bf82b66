import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { publishRemoteFiles, publishShell, publishedSourceHash, readRegistry, switchTo } from './deploy.ts';
import { ROOT, remotePackages, type RemotePackage } from './paths.ts';
import { log, run } from './run.ts';

const SHARED_INPUTS = ['shared', 'rsbuild.shared.ts', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'tsconfig.json'];

/** A fingerprint of source files (path and content) under the given roots. */
export function fingerprint(roots: string[]): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) {
      for (const d of readdirSync(p).sort()) if (d !== 'node_modules' && !d.startsWith('dist')) walk(join(p, d));
    } else h.update(`${relative(ROOT, p)}\0`).update(readFileSync(p));
  };
  for (const r of roots) walk(join(ROOT, r));
  return h.digest('hex');
}

export function remoteSourceHash(remote: RemotePackage): string {
  return fingerprint([relative(ROOT, remote.dir), ...SHARED_INPUTS]);
}

/** Builds one remote into its dist folder with the version baked in. */
export async function buildRemote(remote: RemotePackage, version: string, outDir = join(remote.dir, 'dist')): Promise<void> {
  await run('pnpm', ['exec', 'rsbuild', 'build'], {
    cwd: remote.dir,
    env: { ...process.env, NODE_ENV: 'production', ATELIER_REMOTE_VERSION: version, ATELIER_OUT_DIR: outDir },
    quiet: true,
  });
}

/**
 * The version a working-tree build of a remote is published as: its package version, unless
 * that version was already published from other sources (edits without a version bump), in
 * which case a `-local.<hash>` pre-release keeps immutable URLs honest.
 */
export function localVersion(deployDir: string, remote: RemotePackage, sourceHash: string): string {
  const published = publishedSourceHash(deployDir, remote.name, remote.version);
  return published === null || published === sourceHash ? remote.version : `${remote.version}-local.${sourceHash.slice(0, 8)}`;
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: size }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  }));
}

/** Builds the shell and every remote that changed, and publishes them to the deploy root. */
export async function buildAll(deployDir: string): Promise<void> {
  const started = Date.now();
  const registry = readRegistry(deployDir);
  const shellHash = fingerprint(['shell', ...SHARED_INPUTS]);
  const shellStamp = join(deployDir, '.shell-source-hash');
  const shellFresh = existsSync(join(deployDir, 'index.html')) && existsSync(shellStamp) && readFileSync(shellStamp, 'utf8') === shellHash;
  const work: (() => Promise<void>)[] = [];
  if (!shellFresh) {
    work.push(async () => {
      await run('pnpm', ['exec', 'rsbuild', 'build'], { cwd: join(ROOT, 'shell'), env: { ...process.env, NODE_ENV: 'production' }, quiet: true });
      publishShell(deployDir, join(ROOT, 'shell', 'dist'), Date.now());
      writeFileSync(shellStamp, shellHash);
      log('shell built and published');
    });
  }
  for (const remote of remotePackages()) {
    const hash = remoteSourceHash(remote);
    const version = localVersion(deployDir, remote, hash);
    const live = registry.remotes[remote.name]?.version === version;
    if (publishedSourceHash(deployDir, remote.name, version) === hash) {
      if (!live) switchTo(deployDir, remote.name, version, remote.mounts);
      continue;
    }
    work.push(async () => {
      await buildRemote(remote, version);
      publishRemoteFiles(deployDir, remote.name, version, join(remote.dir, 'dist'), hash);
      switchTo(deployDir, remote.name, version, remote.mounts);
      log(`${remote.name} ${version} built and published`);
    });
  }
  if (work.length === 0) {
    log('front end is up to date');
    return;
  }
  mkdirSync(deployDir, { recursive: true });
  await pool(work, 2, (w) => w());
  log(`front end built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
