/**
 * Build time only (Node): the precache manifest of the shell's build output, in Workbox's
 * format ({ url, revision }), and its injection into the bundled worker.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface PrecacheEntry {
  url: string;
  /** null: the URL itself changes with the content (a content-hashed file). */
  revision: string | null;
}

/** Workbox's injection point, left in the bundle by `self.__WB_MANIFEST` in sw.ts. */
export const INJECTION_POINT = 'self.__WB_MANIFEST';

/** A content hash in the file name, as Rsbuild writes them (`index.c94df850fe.js`). */
const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;

/**
 * What the worker precaches: the document and the shell's /static files. Not the rest of the
 * deploy root (remotes, the registry, version.json, config.json), not source maps or licence
 * notes, nor the Module Federation manifests and the tree-shaking fallbacks in
 * independent-packages/, which only a remote that needs them loads.
 */
export function isPrecached(path: string): boolean {
  if (path === 'index.html') return true;
  return path.startsWith('static/') && !path.endsWith('.map') && !path.endsWith('.LICENSE.txt');
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join('/'));
}

/** The manifest for a built shell folder, sorted so that the same build gives the same worker. */
export function precacheManifest(distDir: string): PrecacheEntry[] {
  return listFiles(distDir)
    .filter(isPrecached)
    .sort()
    .map((path) => ({
      url: `/${path}`,
      revision: HASHED.test(path) ? null : createHash('sha256').update(readFileSync(join(distDir, path))).digest('hex').slice(0, 16),
    }));
}

/** Puts the manifest in place of the single injection point; fails loudly if there is none. */
export function injectManifest(workerSource: string, manifest: PrecacheEntry[]): string {
  const parts = workerSource.split(INJECTION_POINT);
  if (parts.length !== 2) {
    throw new Error(`the service worker bundle must contain "${INJECTION_POINT}" exactly once, found ${parts.length - 1}`);
  }
  return parts.join(JSON.stringify(manifest));
}
