import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { isAppPath, parseRegistry, type RemoteRegistry } from '@atelier/contract';
import { LANGUAGES, splitLocalePath, type Language } from '@atelier/i18n/locale';
import { seoRouteFor } from '@atelier/i18n/seo';
import { NEVER_CACHE, cacheControlFor } from './cache-policy.ts';
import { createContentIndex, type ContentIndex } from '../domain/content.ts';
import { injectHead, pageHead } from './page-head.ts';
import { mountRobots } from './robots.ts';
import { mountSitemaps } from './sitemap.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.xml', '.webmanifest']);

interface CachedFile {
  key: string;
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface DeployRootOptions {
  deployDir: string;
  remoteOverrides: Record<string, string>;
  /**
   * The public site URL (ATELIER_SITE_URL) for canonical links, hreflang alternates and
   * sitemaps. Unset, the origin each request came to is used, so a self-hosted instance is
   * right without configuration.
   */
  siteUrl?: string;
  /** Markdown documents as `<section>/<slug>/<lang>.md`; default `server/content`. */
  contentDir?: string;
  /** An index of them already made (the API's), instead of one of its own over `contentDir`. */
  content?: ContentIndex;
}

/** The blog, docs and legal documents shipped with the server. */
export const DEFAULT_CONTENT_DIR = resolve(import.meta.dirname, '..', '..', 'content');

/** The common namespace of every language, which holds the `seo` titles and descriptions. */
let cataloguesPromise: Promise<Record<Language, unknown>> | null = null;
function seoCatalogues(): Promise<Record<Language, unknown>> {
  cataloguesPromise ??= Promise.all(
    LANGUAGES.map(async (lang) => {
      const mod = (await import(`@atelier/i18n/locales/${lang}.json`, { with: { type: 'json' } })) as { default: unknown };
      return [lang, mod.default] as const;
    }),
  ).then((entries) => Object.fromEntries(entries) as Record<Language, unknown>);
  return cataloguesPromise;
}

/**
 * Serves the deploy root: the shell, the released remotes under remotes/<name>/<version>/, the
 * registry, and index.html (with the registry inlined) for every app route. Compressed copies
 * are made once per file version and kept in memory.
 */
export function mountDeployRoot(app: Hono, options: DeployRootOptions) {
  const root = normalize(options.deployDir);
  const files = new Map<string, CachedFile>();

  async function load(abs: string): Promise<CachedFile | null> {
    let s;
    try {
      s = await stat(abs);
    } catch {
      return null;
    }
    if (!s.isFile()) return null;
    const key = `${s.mtimeMs}:${s.size}`;
    const hit = files.get(abs);
    if (hit?.key === key) return hit;
    const entry: CachedFile = { key, raw: await readFile(abs) };
    files.set(abs, entry);
    return entry;
  }

  function send(c: Context, file: CachedFile, ext: string, cacheControl: string, status = 200, extra: Record<string, string> = {}): Response {
    const headers = new Headers({
      ...extra,
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': cacheControl,
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    });
    let body: Buffer = file.raw;
    const accept = c.req.header('accept-encoding') ?? '';
    if (COMPRESSIBLE.has(ext) && file.raw.length > 512) {
      if (/\bbr\b/.test(accept)) {
        file.br ??= brotliCompressSync(file.raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
        body = file.br;
        headers.set('content-encoding', 'br');
      } else if (/\bgzip\b/.test(accept)) {
        file.gzip ??= gzipSync(file.raw, { level: 9 });
        body = file.gzip;
        headers.set('content-encoding', 'gzip');
      }
    }
    headers.set('content-length', String(body.length));
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status, headers });
  }

  let registryCache: { key: string; registry: RemoteRegistry } | null = null;
  async function registry(): Promise<RemoteRegistry> {
    const file = await load(join(root, 'remotes.json'));
    if (!file) return { schema: 1, remotes: {} };
    if (registryCache?.key !== file.key) {
      const parsed = parseRegistry(JSON.parse(file.raw.toString('utf8')));
      for (const [name, entry] of Object.entries(options.remoteOverrides)) {
        const current = parsed.remotes[name];
        if (current) parsed.remotes[name] = { ...current, entry, version: `${current.version}+dev`, previous: null };
      }
      registryCache = { key: file.key, registry: parsed };
    }
    return registryCache.registry;
  }

  const content = options.content ?? createContentIndex(options.contentDir ?? DEFAULT_CONTENT_DIR);

  const configuredSiteUrl = options.siteUrl?.replace(/\/+$/, '');
  /** The configured site URL; failing that, the origin the request came to. */
  async function siteUrl(c: Context): Promise<string> {
    return configuredSiteUrl ?? new URL(c.req.url).origin;
  }

  mountRobots(app, siteUrl);
  mountSitemaps(app, {
    siteUrl,
    content: () => content.snapshot(),
    send: (c, body, ext, cacheControl, headers) => send(c, { key: '', raw: Buffer.from(body) }, ext, cacheControl, 200, headers),
  });

  app.get('/remotes.json', async (c) => {
    c.header('cache-control', NEVER_CACHE);
    return c.json(await registry());
  });

  /**
   * An app route: index.html with the page's head (language, title, description, canonical,
   * alternates) and the registry inlined; 404 status where no remote owns the path or the blog
   * post, docs page or legal page it names does not exist.
   */
  async function appPage(c: Context, urlPath: string | null): Promise<Response> {
    const index = await load(join(root, 'index.html'));
    if (!index) return c.text('The shell is not built yet: run npm run build.', 503);
    const reg = await registry();
    // null: the document itself was asked for (/index.html), not an app route; it is the home page.
    const pagePath = urlPath ?? '/';
    const known = isAppPath(reg, splitLocalePath(pagePath).path);
    const route = seoRouteFor(splitLocalePath(pagePath).path);
    const head = pageHead({
      urlPath: pagePath,
      siteUrl: await siteUrl(c),
      catalogues: await seoCatalogues(),
      content: route.content ? await content.entry(route.content.section, route.content.slug) : null,
      unknown: !known,
    });
    const inline = `<script>window.__ATELIER_REGISTRY__=${JSON.stringify(reg).replace(/</g, '\\u003c')}</script>`;
    const html = injectHead(index.raw.toString('utf8'), head).replace('</head>', () => `${inline}</head>`);
    const status = urlPath === null || (known && head.found) ? 200 : 404;
    return send(c, { key: '', raw: Buffer.from(html) }, '.html', NEVER_CACHE, status);
  }

  app.on(['GET', 'HEAD'], '*', async (c) => {
    const urlPath = decodeURIComponent(c.req.path);
    const ext = extname(urlPath);
    if (!ext) return appPage(c, urlPath);
    const abs = normalize(join(root, urlPath));
    if (!abs.startsWith(root + sep)) return c.notFound();
    const file = await load(abs);
    if (!file) return c.notFound();
    if (urlPath === '/index.html') return appPage(c, null);
    return send(c, file, ext, cacheControlFor(urlPath));
  });
}
