import type { Page } from '@playwright/test';
import { testOnSharedSite as test, expect } from '../support/site.ts';

const LANGUAGES = ['en', 'zh', 'ru', 'de', 'fr', 'ja', 'ko', 'es', 'pt', 'tr'];

/** The public site URL canonical links and sitemaps are built on, as an operator sets it. */
const SITE_URL = 'https://atelier.example';
test.use({ siteEnv: { ATELIER_SITE_URL: SITE_URL } });
async function siteUrlOf(_page: Page, _url: string): Promise<string> {
  return SITE_URL;
}

/** English unprefixed, the others prefixed (the home page as `/` and `/de`), x-default unprefixed. */
function expectedAlternates(siteUrl: string, path: string): Record<string, string> {
  const url = (l: string) => (l === 'en' ? `${siteUrl}${path}` : `${siteUrl}/${l}${path === '/' ? '' : path}`);
  return { ...Object.fromEntries(LANGUAGES.map((l) => [l, url(l)])), 'x-default': url('en') };
}

test.describe('head metadata without JavaScript', () => {
  // What a crawler that runs no script sees: everything must come from the server.
  test.use({ javaScriptEnabled: false });

  test('a public page in two languages has its title, description, canonical and hreflang set', async ({ page, site }) => {
    const siteUrl = await siteUrlOf(page, site.url);
    const cases = [
      { path: '/pricing', lang: 'en', title: 'Pricing · Atelier', description: /^Credit packs for AI image, video and music generation/, canonical: `${siteUrl}/pricing` },
      { path: '/de/pricing', lang: 'de', title: 'Preise · Atelier', description: /^Credit-Pakete für die KI-Erstellung/, canonical: `${siteUrl}/de/pricing` },
    ];
    for (const c of cases) {
      const res = await page.goto(site.url + c.path);
      expect(res?.status(), c.path).toBe(200);
      await expect(page.locator('html'), c.path).toHaveAttribute('lang', c.lang);
      await expect(page, c.path).toHaveTitle(c.title);
      await expect(page.locator('title'), c.path).toHaveCount(1);
      const description = page.locator('meta[name="description"]');
      await expect(description, c.path).toHaveCount(1);
      await expect(description, c.path).toHaveAttribute('content', c.description);
      await expect(page.locator('link[rel="canonical"]'), c.path).toHaveAttribute('href', c.canonical);
      await expect(page.locator('meta[property="og:url"]'), c.path).toHaveAttribute('content', c.canonical);
      await expect(page.locator('meta[name="robots"]'), c.path).toHaveCount(0);
      const alternates = await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
      expect(Object.fromEntries(alternates), c.path).toEqual(expectedAlternates(siteUrl, '/pricing'));
    }
    // The shell never ran: this is the server's HTML.
    await expect(page.locator('#root')).toBeEmpty();
  });

  test('a dashboard page is noindex, with no canonical or hreflang', async ({ page, site }) => {
    await page.goto(`${site.url}/fr/dashboard/image`);
    await expect(page).toHaveTitle('Images · Atelier');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('link[rel="canonical"], link[rel="alternate"]')).toHaveCount(0);
  });
});

test('/sitemap.xml indexes the language sitemaps; /fr/sitemap.xml lists the French pages with alternates', async ({ page, site }) => {
  const siteUrl = await siteUrlOf(page, site.url);
  await page.goto('about:blank');
  const parse = (xml: string) =>
    page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.getElementsByTagName('parsererror').length) return { error: doc.getElementsByTagName('parsererror')[0]!.textContent };
      const SM = 'http://www.sitemaps.org/schemas/sitemap/0.9';
      const XHTML = 'http://www.w3.org/1999/xhtml';
      const loc = (el: Element) => el.getElementsByTagNameNS(SM, 'loc')[0]?.textContent ?? null;
      return {
        root: doc.documentElement.localName,
        ns: doc.documentElement.namespaceURI,
        sitemaps: [...doc.getElementsByTagNameNS(SM, 'sitemap')].map(loc),
        urls: [...doc.getElementsByTagNameNS(SM, 'url')].map((u) => ({
          loc: loc(u),
          lastmod: u.getElementsByTagNameNS(SM, 'lastmod')[0]?.textContent ?? null,
          alternates: Object.fromEntries(
            [...u.getElementsByTagNameNS(XHTML, 'link')].filter((l) => l.getAttribute('rel') === 'alternate').map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]),
          ),
        })),
      };
    }, xml);

  const indexRes = await page.request.get(`${site.url}/sitemap.xml`);
  expect(indexRes.status()).toBe(200);
  expect(indexRes.headers()['content-type']).toMatch(/^application\/xml/);
  expect(indexRes.headers()['cache-control']).toContain('no-cache');
  const index = await parse(await indexRes.text());
  expect(index).toMatchObject({ root: 'sitemapindex', ns: 'http://www.sitemaps.org/schemas/sitemap/0.9' });
  expect(index.sitemaps).toEqual(LANGUAGES.map((l) => `${siteUrl}/${l}/sitemap.xml`));

  const frRes = await page.request.get(`${site.url}/fr/sitemap.xml`);
  expect(frRes.status()).toBe(200);
  expect(frRes.headers()['content-type']).toMatch(/^application\/xml/);
  const fr = await parse(await frRes.text());
  expect(fr).toMatchObject({ root: 'urlset' });
  const byLoc = new Map(fr.urls!.map((u) => [u.loc, u]));
  for (const path of ['', '/pricing', '/blog', '/docs', '/auth/login', '/auth/register']) {
    const url = byLoc.get(`${siteUrl}/fr${path}`);
    expect(url, `/fr${path}`).toBeDefined();
    expect(url!.alternates, `/fr${path}`).toEqual(expectedAlternates(siteUrl, path || '/'));
  }
  // Every URL is French and carries alternates; blog posts carry their date.
  for (const u of fr.urls!) {
    expect(u.loc!.startsWith(`${siteUrl}/fr`), u.loc!).toBe(true);
    expect(u.alternates['fr'], u.loc!).toBe(u.loc);
    expect(u.alternates['x-default'], u.loc!).toBeTruthy();
    if (/\/blog\/[^/]+$/.test(u.loc!)) expect(u.lastmod, u.loc!).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }
});
