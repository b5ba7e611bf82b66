/** Files that change on every deployment or release: the browser must always ask. */
export const NEVER_CACHE = 'no-cache, no-store, must-revalidate';
/** Versioned or content-hashed files never change under their URL. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

const NEVER_CACHED_PATHS = new Set(['/index.html', '/remotes.json', '/version.json', '/sw.js', '/config.json']);

export function cacheControlFor(urlPath: string): string {
  if (NEVER_CACHED_PATHS.has(urlPath)) return NEVER_CACHE;
  // remotes/<name>/<version>/... : a release never overwrites a published version.
  if (/^\/remotes\/[^/]+\/[^/]+\/./.test(urlPath)) return IMMUTABLE;
  // The shell's build output puts a content hash in every file under /static.
  if (urlPath.startsWith('/static/')) return IMMUTABLE;
  return REVALIDATE;
}
