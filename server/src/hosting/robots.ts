import type { Context, Hono } from 'hono';

/** Generated per request from the site URL: revalidate every time, like the sitemaps. */
export const ROBOTS_CACHE_CONTROL = 'no-cache';

/** Every page may be crawled; the sitemap index lists each public page in every language. */
export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl.replace(/\/+$/, '')}/sitemap.xml\n`;
}

/**
 * Registers `/robots.txt`; must come before the deploy root's catch-all. `siteUrl` is the deploy
 * root's: the configured ATELIER_SITE_URL, else the origin the request came to.
 */
export function mountRobots(app: Hono, siteUrl: (c: Context) => Promise<string>) {
  app.get('/robots.txt', async (c) => {
    c.header('cache-control', ROBOTS_CACHE_CONTROL);
    return c.text(robotsTxt(await siteUrl(c)));
  });
}
