import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@atelier/i18n/locale';
import { call } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

const post = (title: string, date: string, extra = '') => `---\ntitle: "${title}"\ndescription: "About ${title}."\ndate: ${date}\nauthor: "Atelier team"\ntags: [news]\n${extra}---\n\n# ${title}\n\nBody of ${title}.\n`;

/** Five posts (one also in Japanese), two docs pages, two legal pages. */
const DOCS: Record<string, string> = {
  'blog/first/en.md': post('First', '2026-01-05'),
  'blog/first/ja.md': post('最初', '2026-01-05'),
  'blog/second/en.md': post('Second', '2026-02-05'),
  'blog/third/en.md': post('Third', '2026-03-05'),
  'blog/fourth/en.md': post('Fourth', '2026-04-05'),
  'blog/fifth/en.md': post('Fifth', '2026-05-05'),
  'docs/api/en.md': '---\ntitle: "API guide"\norder: 2\n---\nCall it.\n',
  'docs/getting-started/en.md': '---\ntitle: "Getting started"\norder: 1\n---\nStart here.\n',
  'docs/getting-started/de.md': '---\ntitle: "Erste Schritte"\norder: 1\n---\nHier beginnen.\n',
  'legal/terms/en.md': '---\ntitle: "Terms"\n---\nRules with <b>raw</b> HTML kept raw.\n',
  'legal/privacy/en.md': '---\ntitle: "Privacy"\n---\nData.\n',
  // Only in French: served in French whatever is asked.
  'legal/refund/fr.md': '---\ntitle: "Remboursement"\n---\nRègles.\n',
};

let content: string;
let outside: string;
let server: TestServer;

beforeAll(async () => {
  content = mkdtempSync(join(tmpdir(), 'atelier-content-api-'));
  for (const [file, text] of Object.entries(DOCS)) {
    mkdirSync(dirname(join(content, file)), { recursive: true });
    writeFileSync(join(content, file), text);
  }
  // Something outside the content folder that no request may reach, even through a link.
  outside = mkdtempSync(join(tmpdir(), 'atelier-outside-'));
  mkdirSync(join(outside, 'secret'));
  writeFileSync(join(outside, 'secret', 'en.md'), '---\ntitle: "Secret"\n---\nTOP SECRET\n');
  symlinkSync(join(outside, 'secret'), join(content, 'blog', 'linked'));
  server = await startTestServer('pglite', { contentDir: content });
});
afterAll(async () => {
  await server.close();
  rmSync(content, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('the blog list', () => {
  it('is paginated, newest first, with the total', async () => {
    const page1 = await call(server, '/api/content/blog?lang=en&page=1&pageSize=2');
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(page1.body.items.map((p: { slug: string }) => p.slug)).toEqual(['fifth', 'fourth']);
    expect(page1.body.items[0]).toEqual({
      slug: 'fifth',
      language: 'en',
      languages: ['en'],
      title: 'Fifth',
      description: 'About Fifth.',
      date: '2026-05-05',
      author: 'Atelier team',
      tags: ['news'],
    });
    const page3 = await call(server, '/api/content/blog?lang=en&page=3&pageSize=2');
    expect(page3.body.items.map((p: { slug: string }) => p.slug)).toEqual(['first']);
    const past = await call(server, '/api/content/blog?lang=en&page=4&pageSize=2');
    expect(past.body).toEqual({ items: [], page: 4, pageSize: 2, total: 5 });
  });

  it('defaults to the first page of ten', async () => {
    const res = await call(server, '/api/content/blog');
    expect(res.body).toMatchObject({ page: 1, pageSize: 10, total: 5 });
    expect(res.body.items).toHaveLength(5);
  });

  it('serves each post in the language asked for, else in English, saying which', async () => {
    const res = await call(server, '/api/content/blog?lang=ja');
    const first = res.body.items.find((p: { slug: string }) => p.slug === 'first');
    expect(first).toMatchObject({ language: 'ja', languages: ['en', 'ja'], title: '最初' });
    expect(res.body.items.find((p: { slug: string }) => p.slug === 'second')).toMatchObject({ language: 'en', title: 'Second' });
  });

  it('takes the language from the language cookie, then Accept-Language, when none is asked for', async () => {
    const byHeader = await call(server, '/api/content/blog', { headers: { 'accept-language': 'ja-JP,ja;q=0.9' } });
    expect(byHeader.body.items.find((p: { slug: string }) => p.slug === 'first').language).toBe('ja');
    expect(byHeader.headers.get('vary')).toMatch(/accept-language/);
    const byCookie = await call(server, '/api/content/blog', { headers: { cookie: 'atelier_lang=en', 'accept-language': 'ja' } });
    expect(byCookie.body.items.find((p: { slug: string }) => p.slug === 'first').language).toBe('en');
  });

  it.each(['page=0', 'page=x', 'pageSize=0', 'pageSize=51', 'lang=xx', 'lang=EN'])('refuses %s', async (query) => {
    const res = await call(server, `/api/content/blog?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('the docs and legal lists', () => {
  it('lists docs by their order, in the language asked for where written', async () => {
    const res = await call(server, '/api/content/docs?lang=de');
    expect(res.status).toBe(200);
    expect(res.body.section).toBe('docs');
    expect(res.body.items.map((d: { slug: string; language: string; order: number }) => [d.slug, d.language, d.order])).toEqual([
      ['getting-started', 'de', 1],
      ['api', 'en', 2],
    ]);
  });

  it('lists legal pages by slug; a page written in one language only is served in it', async () => {
    const res = await call(server, '/api/content/legal?lang=en');
    expect(res.body.items.map((d: { slug: string; language: string }) => [d.slug, d.language])).toEqual([
      ['privacy', 'en'],
      ['refund', 'fr'],
      ['terms', 'en'],
    ]);
  });

  it('knows no other section', async () => {
    const res = await call(server, '/api/content/secrets');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('one document', () => {
  it('answers the front matter and the raw Markdown body', async () => {
    const res = await call(server, '/api/content/blog/first?lang=ja');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      section: 'blog',
      slug: 'first',
      language: 'ja',
      languages: ['en', 'ja'],
      title: '最初',
      description: 'About 最初.',
      date: '2026-01-05',
      author: 'Atelier team',
      tags: ['news'],
      markdown: '# 最初\n\nBody of 最初.\n',
    });
    const terms = await call(server, '/api/content/legal/terms?lang=en');
    expect(terms.body.markdown).toBe('Rules with <b>raw</b> HTML kept raw.\n');
  });

  it('falls back to English, saying so', async () => {
    const res = await call(server, '/api/content/blog/second?lang=ko');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'second', language: 'en', title: 'Second' });
    expect(res.body.markdown).toContain('Body of Second.');
  });

  it('answers 404 for a slug that does not exist, or exists in another section', async () => {
    for (const path of ['/api/content/blog/nope', '/api/content/docs/first', '/api/content/legal/getting-started']) {
      const res = await call(server, path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it.each([
    '/api/content/blog/..%2F..%2Fpackage.json',
    '/api/content/blog/%2e%2e',
    '/api/content/blog/..',
    '/api/content/blog/first%2Fen.md',
    '/api/content/blog/first.md',
    '/api/content/blog/First',
    '/api/content/blog/-first',
    '/api/content/..%2Fblog/first',
    '/api/content/blog%2F..%2Fdocs/api',
    `/api/content/blog/${'a'.repeat(101)}`,
    '/api/content/blog/first?lang=..%2F..%2Fetc',
  ])('refuses %s without reading anything outside the content', async (path) => {
    const res = await call(server, path);
    expect([400, 404]).toContain(res.status);
    expect(JSON.stringify(res.body)).not.toMatch(/TOP SECRET|"name":/);
  });

  it('never follows a link out of the content folder', async () => {
    const res = await call(server, '/api/content/blog/linked');
    expect(res.status).toBe(404);
    const list = await call(server, '/api/content/blog?pageSize=50');
    expect(list.body.items.map((p: { slug: string }) => p.slug)).not.toContain('linked');
  });
});

describe('the shipped content', () => {
  let shipped: TestServer;
  beforeAll(async () => {
    shipped = await startTestServer('pglite');
  });
  afterAll(() => shipped.close());

  it('has at least three blog posts, the getting-started and API guides, and four legal pages, each in all ten languages', async () => {
    for (const lang of LANGUAGES) {
      const blog = await call(shipped, `/api/content/blog?lang=${lang}`);
      expect(blog.body.total).toBeGreaterThanOrEqual(3);
      expect(blog.body.items.every((p: { language: string }) => p.language === lang)).toBe(true);
      const docs = await call(shipped, `/api/content/docs?lang=${lang}`);
      expect(docs.body.items.map((d: { slug: string }) => d.slug)).toEqual(expect.arrayContaining(['getting-started', 'api']));
      const legal = await call(shipped, `/api/content/legal?lang=${lang}`);
      expect(legal.body.items.map((d: { slug: string }) => d.slug).sort()).toEqual(['cookies', 'privacy', 'refund', 'terms']);
      expect(legal.body.items.every((d: { language: string }) => d.language === lang)).toBe(true);
    }
    const guide = await call(shipped, '/api/content/docs/getting-started?lang=fr');
    expect(guide.body.language).toBe('fr');
    expect(guide.body.markdown.length).toBeGreaterThan(500);
    expect(guide.body.markdown.startsWith('---')).toBe(false);
  });
});
