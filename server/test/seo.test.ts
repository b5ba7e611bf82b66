import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { Window } from 'happy-dom';
import { LANGUAGES } from '@atelier/i18n/locale';
import { mountDeployRoot } from '../src/hosting/deploy-root.ts';
import { createContentIndex, parseFrontMatter } from '../src/domain/content.ts';
import { escapeHtml, injectHead, pageHead } from '../src/hosting/page-head.ts';
import { escapeXml } from '../src/hosting/sitemap.ts';

const SITE = 'https://atelier.example';
const REPO = join(import.meta.dirname, '..', '..');
/** The shell's real template, so replacing its default title and description is what is tested. */
const TEMPLATE = readFileSync(join(REPO, 'shell', 'src', 'index.html'), 'utf8');
const catalogues = Object.fromEntries(
  LANGUAGES.map((l) => [l, JSON.parse(readFileSync(join(REPO, 'shared', 'i18n', 'src', 'locales', `${l}.json`), 'utf8')) as unknown]),
);
const window = new Window();
const parser = new window.DOMParser();

const EVIL = `Tips & <script>alert("x")</script> $& 'quoted'`;
const DOCS: Record<string, string> = {
  'blog/hello-world/en.md': '---\ntitle: "Hello world"\ndescription: "The first post."\ndate: 2026-09-08\nauthor: "Atelier team"\ntags: [news]\n---\n\n# Hello world\n',
  'blog/hello-world/ja.md': '---\ntitle: "こんにちは世界"\ndescription: "最初の投稿です。"\ndate: 2026-09-08\n---\n\n# こんにちは\n',
  'blog/newer-post/en.md': `---\ntitle: ${JSON.stringify(EVIL)}\ndescription: "Between <b> & </b>"\ndate: 2026-10-01\n---\n\nBody\n`,
  'docs/getting-started/en.md': '---\ntitle: "Getting started"\ndescription: "From a new account to a first image."\norder: 1\n---\n\nBody\n',
  'docs/getting-started/de.md': '---\ntitle: "Erste Schritte"\ndescription: "Vom neuen Konto zum ersten Bild."\norder: 1\n---\n\nBody\n',
  'legal/terms/en.md': '---\ntitle: "Terms of Service"\ndescription: "The rules."\n---\n\nBody\n',
  'legal/terms/ja.md': '---\ntitle: "利用規約"\ndescription: "ルール。"\n---\n\nBody\n',
};

let deploy: string;
let content: string;
let app: Hono;

beforeAll(() => {
  deploy = mkdtempSync(join(tmpdir(), 'atelier-seo-'));
  content = mkdtempSync(join(tmpdir(), 'atelier-content-'));
  for (const [file, text] of Object.entries(DOCS)) {
    mkdirSync(dirname(join(content, file)), { recursive: true });
    writeFileSync(join(content, file), text);
  }
  writeFileSync(join(deploy, 'index.html'), TEMPLATE.replace('</head>', '<script defer src="/static/js/index.js"></script></head>'));
  const entry = (mounts: { path: string; layout: 'default' | 'dashboard' }[]) => ({
    version: '1.0.0',
    entry: '/remotes/x/1.0.0/mf-manifest.json',
    releasedAt: '2026-01-01T00:00:00.000Z',
    mounts,
    previous: null,
    history: [],
  });
  writeFileSync(
    join(deploy, 'remotes.json'),
    JSON.stringify({
      schema: 1,
      remotes: {
        'public-site': entry(['/', '/pricing', '/blog', '/docs', '/legal'].map((path) => ({ path, layout: 'default' as const }))),
        account: entry([{ path: '/auth', layout: 'default' }, { path: '/user', layout: 'dashboard' }, { path: '/dashboard', layout: 'dashboard' }]),
        image: entry([{ path: '/dashboard/image', layout: 'dashboard' }]),
      },
    }),
  );
  app = new Hono();
  mountDeployRoot(app, { deployDir: deploy, remoteOverrides: {}, siteUrl: `${SITE}/`, contentDir: content });
});
afterAll(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(content, { recursive: true, force: true });
});

/** The served document's head as the browser (or a crawler) sees it before any script runs. */
async function head(path: string) {
  const res = await app.request(path);
  const html = await res.text();
  const doc = parser.parseFromString(html, 'text/html');
  const attr = (selector: string, name: string) => doc.querySelector(selector)?.getAttribute(name) ?? null;
  const alternates = Object.fromEntries(
    [...doc.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [l.getAttribute('hreflang')!, l.getAttribute('href')!]),
  );
  return {
    status: res.status,
    html,
    lang: doc.documentElement.getAttribute('lang'),
    titles: [...doc.querySelectorAll('title')].map((t) => t.textContent),
    descriptions: [...doc.querySelectorAll('meta[name="description"]')].map((m) => m.getAttribute('content')),
    canonical: attr('link[rel="canonical"]', 'href'),
    robots: attr('meta[name="robots"]', 'content'),
    alternates,
    og: (p: string) => attr(`meta[property="og:${p}"]`, 'content'),
  };
}

const allAlternates = (path: string) => ({
  ...Object.fromEntries(LANGUAGES.map((l) => [l, `${SITE}${l === 'en' ? path : path === '/' ? `/${l}` : `/${l}${path}`}`])),
  'x-default': `${SITE}${path}`,
});

describe('page head, injected by the server', () => {
  it('gives the home page its title, description, canonical, all hreflang alternates and Open Graph tags', async () => {
    const h = await head('/');
    expect(h.status).toBe(200);
    expect(h.lang).toBe('en');
    // The template's default title and description are replaced, not duplicated.
    expect(h.titles).toEqual(['Atelier — AI images, video and music']);
    expect(h.descriptions).toHaveLength(1);
    expect(h.descriptions[0]).toMatch(/^Create images, video and music with AI/);
    expect(h.canonical).toBe(`${SITE}/`);
    expect(h.alternates).toEqual(allAlternates('/'));
    expect(h.robots).toBeNull();
    expect(h.og('title')).toBe(h.titles[0]);
    expect(h.og('url')).toBe(`${SITE}/`);
    expect(h.og('locale')).toBe('en_US');
    // The head comes before the shell's script and the inlined registry.
    expect(h.html.indexOf('<title>')).toBeLessThan(h.html.indexOf('<script'));
    expect(h.html).toContain('window.__ATELIER_REGISTRY__=');
  });

  it('serves /ja/pricing in Japanese, prefixed', async () => {
    const h = await head('/ja/pricing');
    expect(h.lang).toBe('ja');
    expect(h.titles).toEqual(['料金 · Atelier']);
    expect(h.descriptions[0]).toContain('クレジット');
    expect(h.canonical).toBe(`${SITE}/ja/pricing`);
    expect(h.alternates).toEqual(allAlternates('/pricing'));
    expect(h.og('locale')).toBe('ja_JP');
    expect(h.og('description')).toBe(h.descriptions[0]);
  });

  it('canonicalises /en/pricing to the unprefixed URL', async () => {
    const h = await head('/en/pricing');
    expect(h.lang).toBe('en');
    expect(h.titles).toEqual(['Pricing · Atelier']);
    expect(h.canonical).toBe(`${SITE}/pricing`);
    expect(h.og('url')).toBe(`${SITE}/pricing`);
    expect((await head('/ja')).canonical).toBe(`${SITE}/ja`);
  });

  it('takes a blog post title and description from its front matter, in each language it is written in', async () => {
    const en = await head('/blog/hello-world');
    expect(en.status).toBe(200);
    expect(en.titles).toEqual(['Hello world · Atelier']);
    expect(en.descriptions).toEqual(['The first post.']);
    expect(en.canonical).toBe(`${SITE}/blog/hello-world`);
    expect(en.og('type')).toBe('article');

    const ja = await head('/ja/blog/hello-world');
    expect(ja.lang).toBe('ja');
    expect(ja.titles).toEqual(['こんにちは世界 · Atelier']);
    expect(ja.descriptions).toEqual(['最初の投稿です。']);
    expect(ja.canonical).toBe(`${SITE}/ja/blog/hello-world`);
    // Alternates name only the languages the post is written in.
    const alternates = { en: `${SITE}/blog/hello-world`, ja: `${SITE}/ja/blog/hello-world`, 'x-default': `${SITE}/blog/hello-world` };
    expect(en.alternates).toEqual(alternates);
    expect(ja.alternates).toEqual(alternates);
  });

  it('points a post missing in a language at the version whose text it shows', async () => {
    const h = await head('/de/blog/hello-world');
    expect(h.status).toBe(200);
    expect(h.lang).toBe('de');
    expect(h.titles).toEqual(['Hello world · Atelier']);
    expect(h.canonical).toBe(`${SITE}/blog/hello-world`);
  });

  it('uses legal and docs front matter, with the seo strings as the fallback', async () => {
    expect((await head('/ja/legal/terms')).titles).toEqual(['利用規約 · Atelier']);
    expect((await head('/de/docs/getting-started')).titles).toEqual(['Erste Schritte · Atelier']);
    expect((await head('/de/docs')).titles).toEqual(['Dokumentation · Atelier']);
  });

  it('answers 404 with the not-found head for a post, docs page or legal page that does not exist', async () => {
    for (const path of ['/blog/no-such-post', '/fr/docs/nothing', '/legal/imprint']) {
      const h = await head(path);
      expect(h.status, path).toBe(404);
      expect(h.robots, path).toBe('noindex');
      expect(h.canonical, path).toBeNull();
    }
    expect((await head('/fr/blog/no-such-post')).titles).toEqual(['Page introuvable · Atelier']);
    expect((await head('/no/such/page')).status).toBe(404);
  });

  it('gives dashboard and user pages a title and description, noindex, and no canonical or hreflang', async () => {
    for (const [path, title, lang] of [
      ['/dashboard/image', 'Image · Atelier', 'en'],
      ['/de/dashboard', 'Übersicht · Atelier', 'de'],
      ['/ko/user/orders', '주문 내역 · Atelier', 'ko'],
    ] as const) {
      const h = await head(path);
      expect(h.status, path).toBe(200);
      expect(h.lang, path).toBe(lang);
      expect(h.titles, path).toEqual([title]);
      expect(h.descriptions, path).toHaveLength(1);
      expect(h.robots, path).toBe('noindex');
      expect(h.canonical, path).toBeNull();
      expect(h.alternates, path).toEqual({});
      expect(h.og('title'), path).toBeNull();
    }
  });

  it('escapes titles and descriptions from content files', async () => {
    const h = await head('/blog/newer-post');
    expect(h.titles).toEqual([`${EVIL} · Atelier`]);
    expect(h.descriptions).toEqual(['Between <b> & </b>']);
    expect(h.og('title')).toBe(`${EVIL} · Atelier`);
    expect(h.html).not.toContain('<script>alert');
    expect(h.html).toContain('Tips &amp; &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; $&amp; &#39;quoted&#39; · Atelier');
  });

  it('serves /index.html with the home head', async () => {
    const res = await app.request('/index.html');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<link rel="canonical" href="https://atelier.example/" />');
  });
});

describe('pageHead and injectHead', () => {
  const input = { siteUrl: SITE, catalogues };

  it('sets <html lang> whatever the template had, and adds the head where no title was', () => {
    const head = pageHead({ ...input, urlPath: '/tr/pricing' });
    const out = injectHead('<!doctype html><html class="x" lang="en"><head><meta charset="utf-8"></head><body></body></html>', head);
    expect(out).toMatch(/^<!doctype html><html lang="tr" class="x"><head><meta charset="utf-8">  <title>Fiyatlandırma · Atelier<\/title>/);
    expect(out.match(/<title>/g)).toHaveLength(1);
  });

  it('normalises a trailing slash in the canonical link', () => {
    expect(pageHead({ ...input, urlPath: '/fr/pricing/' }).canonical).toBe(`${SITE}/fr/pricing`);
  });

  it('escapes every special character in text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeXml(`a&b<c>"d"'e'`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
  });
});

describe('content index', () => {
  it('reads the front matter a blog post, a docs page and a legal page carry', () => {
    expect(parseFrontMatter(DOCS['blog/hello-world/en.md']!)).toEqual({
      title: 'Hello world',
      description: 'The first post.',
      date: '2026-09-08',
      author: 'Atelier team',
      tags: ['news'],
    });
    expect(parseFrontMatter(DOCS['docs/getting-started/en.md']!)).toMatchObject({ order: 1 });
    expect(parseFrontMatter('# no front matter')).toBeNull();
    expect(parseFrontMatter('---\ntitle: [unclosed\n---\n')).toBeNull();
    expect(parseFrontMatter('---\ntitle: "x"\ndate: not a date\n---\n')).toEqual({ title: 'x' });
  });

  it('lists slugs per section and language, blog newest first, and sees new documents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-content-'));
    try {
      for (const [file, text] of Object.entries(DOCS)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      const index = createContentIndex(dir, { maxAgeMs: 0 });
      const snap = await index.snapshot();
      expect(snap.blog.map((e) => e.slug)).toEqual(['newer-post', 'hello-world']);
      expect(Object.keys(snap.blog[1]!.docs).sort()).toEqual(['en', 'ja']);
      expect(snap.docs.map((e) => e.slug)).toEqual(['getting-started']);
      expect(snap.legal.map((e) => e.slug)).toEqual(['terms']);
      writeFileSync(join(dir, 'legal/terms/fr.md'), '---\ntitle: "Conditions"\ndescription: "Les règles."\n---\n');
      expect((await index.entry('legal', 'terms'))?.docs.fr?.title).toBe('Conditions');
      expect(await index.entry('blog', 'nope')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is empty, not failing, when there is no content directory', async () => {
    const snap = await createContentIndex(join(tmpdir(), 'atelier-no-such-dir')).snapshot();
    expect(snap).toEqual({ blog: [], docs: [], legal: [] });
  });
});

describe('sitemaps', () => {
  function xml(text: string) {
    const doc = parser.parseFromString(text, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    return doc;
  }

  it('/sitemap.xml is an index of the ten language sitemaps', async () => {
    const res = await app.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const doc = xml(await res.text());
    expect(doc.documentElement.tagName).toBe('sitemapindex');
    expect(doc.documentElement.getAttribute('xmlns')).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = [...doc.getElementsByTagName('sitemap')].map((s) => s.getElementsByTagName('loc')[0]!.textContent);
    expect(locs).toEqual(LANGUAGES.map((l) => `${SITE}/${l}/sitemap.xml`));
  });

  it('/ja/sitemap.xml lists every public page in Japanese with alternates, and each document written in Japanese', async () => {
    const res = await app.request('/ja/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const doc = xml(await res.text());
    expect(doc.documentElement.tagName).toBe('urlset');
    expect(doc.documentElement.getAttribute('xmlns:xhtml')).toBe('http://www.w3.org/1999/xhtml');
    const urls = [...doc.getElementsByTagName('url')].map((u) => ({
      loc: u.getElementsByTagName('loc')[0]!.textContent,
      lastmod: u.getElementsByTagName('lastmod')[0]?.textContent ?? null,
      alternates: Object.fromEntries(
        [...u.getElementsByTagName('xhtml:link')].map((l) => {
          expect(l.getAttribute('rel')).toBe('alternate');
          return [l.getAttribute('hreflang')!, l.getAttribute('href')!];
        }),
      ),
    }));
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    expect([...byLoc.keys()]).toEqual([
      `${SITE}/ja`,
      `${SITE}/ja/pricing`,
      `${SITE}/ja/blog`,
      `${SITE}/ja/docs`,
      `${SITE}/ja/legal/terms`,
      `${SITE}/ja/auth/login`,
      `${SITE}/ja/auth/register`,
      `${SITE}/ja/blog/hello-world`,
    ]);
    expect(byLoc.get(`${SITE}/ja/pricing`)!.alternates).toEqual(allAlternates('/pricing'));
    expect(byLoc.get(`${SITE}/ja`)!.alternates).toEqual(allAlternates('/'));
    expect(byLoc.get(`${SITE}/ja/pricing`)!.lastmod).toBeNull();
    const post = byLoc.get(`${SITE}/ja/blog/hello-world`)!;
    expect(post.lastmod).toBe('2026-09-08');
    expect(post.alternates).toEqual({ en: `${SITE}/blog/hello-world`, ja: `${SITE}/ja/blog/hello-world`, 'x-default': `${SITE}/blog/hello-world` });
    expect(byLoc.get(`${SITE}/ja/blog`)!.lastmod).toBe('2026-09-08');
  });

  it('the English sitemap has the unprefixed URLs and every English document', async () => {
    const doc = xml(await (await app.request('/en/sitemap.xml')).text());
    const locs = [...doc.getElementsByTagName('loc')].map((l) => l.textContent);
    expect(locs).toContain(`${SITE}/`);
    expect(locs).toContain(`${SITE}/blog/newer-post`);
    expect(locs).toContain(`${SITE}/docs/getting-started`);
    expect(locs.some((l) => l.includes('/en/'))).toBe(false);
  });

  it('answers a matching If-None-Match with 304, and unknown languages with 404', async () => {
    const first = await app.request('/de/sitemap.xml');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await app.request('/de/sitemap.xml', { headers: { 'if-none-match': etag! } })).status).toBe(304);
    expect((await app.request('/xx/sitemap.xml')).status).toBe(404);
  });
});
