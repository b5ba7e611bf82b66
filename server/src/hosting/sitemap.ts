import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { LANGUAGES, isLanguage, type Language } from '@atelier/i18n/locale';
import { PUBLIC_PATHS, seoRouteFor, type ContentSection } from '@atelier/i18n/seo';
import type { ContentEntry, ContentSnapshot } from '../domain/content.ts';
import { alternatesFor, contentLanguages, pageUrl, type Alternate } from './page-head.ts';

/** Sitemaps are generated per request from the content index: revalidate every time. */
export const SITEMAP_CACHE_CONTROL = 'no-cache';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  alternates: Alternate[];
}

/** `/sitemap.xml`: one sitemap per language. */
export function sitemapIndexXml(siteUrl: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  const entries = LANGUAGES.map((l) => `  <sitemap>\n    <loc>${escapeXml(`${base}/${l}/sitemap.xml`)}</loc>\n  </sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

const newest = (dates: (string | undefined)[]) => dates.filter((d): d is string => !!d).sort().at(-1);

/**
 * Every public URL in one language: the fixed pages, then each blog post and docs page written in
 * that language. Blog, docs and legal documents list only the languages they are written in as
 * alternates; the fixed pages list all ten. x-default is the unprefixed (English) URL.
 */
export function sitemapUrls(lang: Language, siteUrl: string, content: ContentSnapshot): SitemapUrl[] {
  const urls: SitemapUrl[] = [];
  const contentUrl = (section: ContentSection, entry: ContentEntry): SitemapUrl | null => {
    const doc = entry.docs[lang];
    if (!doc) return null;
    const path = `/${section}/${entry.slug}`;
    const url: SitemapUrl = { loc: pageUrl(siteUrl, lang, path), alternates: alternatesFor(siteUrl, path, contentLanguages(entry)) };
    const lastmod = section === 'blog' ? (doc.date ?? entry.docs.en?.date) : undefined;
    if (lastmod) url.lastmod = lastmod;
    return url;
  };
  for (const path of PUBLIC_PATHS) {
    const route = seoRouteFor(path);
    if (route.content) {
      const entry = content[route.content.section].find((e) => e.slug === route.content!.slug);
      const url = entry && contentUrl(route.content.section, entry);
      if (url) urls.push(url);
      continue;
    }
    const url: SitemapUrl = { loc: pageUrl(siteUrl, lang, path), alternates: alternatesFor(siteUrl, path) };
    if (path === '/blog') {
      const lastmod = newest(content.blog.map((e) => e.docs[lang]?.date));
      if (lastmod) url.lastmod = lastmod;
    }
    urls.push(url);
  }
  for (const section of ['blog', 'docs'] as const) {
    for (const entry of content[section]) {
      const url = contentUrl(section, entry);
      if (url) urls.push(url);
    }
  }
  return urls;
}

/** `/{lang}/sitemap.xml`. */
export function languageSitemapXml(lang: Language, siteUrl: string, content: ContentSnapshot): string {
  const body = sitemapUrls(lang, siteUrl, content).map((u) => {
    const lines = [`    <loc>${escapeXml(u.loc)}</loc>`];
    if (u.lastmod) lines.push(`    <lastmod>${escapeXml(u.lastmod)}</lastmod>`);
    for (const a of u.alternates) lines.push(`    <xhtml:link rel="alternate" hreflang="${escapeXml(a.hreflang)}" href="${escapeXml(a.href)}"/>`);
    return `  <url>\n${lines.join('\n')}\n  </url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">\n${body.join('\n')}\n</urlset>\n`;
}

export interface SitemapDeps {
  siteUrl(c: Context): Promise<string>;
  content(): Promise<ContentSnapshot>;
  /** Sends a generated body (compressed when the client accepts it). */
  send(c: Context, body: string, ext: '.xml', cacheControl: string, headers: Record<string, string>): Response;
}

/** Registers `/sitemap.xml` and `/{lang}/sitemap.xml`; must come before the deploy root's catch-all. */
export function mountSitemaps(app: Hono, deps: SitemapDeps) {
  const respond = (c: Context, xml: string) => {
    const etag = `W/"${createHash('sha1').update(xml).digest('base64url')}"`;
    if (c.req.header('if-none-match')?.split(/\s*,\s*/).includes(etag)) {
      return new Response(null, { status: 304, headers: { etag, 'cache-control': SITEMAP_CACHE_CONTROL, vary: 'accept-encoding' } });
    }
    return deps.send(c, xml, '.xml', SITEMAP_CACHE_CONTROL, { etag });
  };
  app.get('/sitemap.xml', async (c) => respond(c, sitemapIndexXml(await deps.siteUrl(c))));
  app.get('/:lang/sitemap.xml', async (c, next) => {
    const lang = c.req.param('lang');
    if (!isLanguage(lang)) return next();
    return respond(c, languageSitemapXml(lang, await deps.siteUrl(c), await deps.content()));
  });
}
