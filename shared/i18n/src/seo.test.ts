import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from './locale.ts';
import { PUBLIC_PATHS, SEO_KEYS, contentTitle, seoRouteFor, seoStrings } from './seo.ts';

const catalogue = (lang: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, 'locales', `${lang}.json`), 'utf8'));

describe('seoRouteFor', () => {
  it.each([
    ['/', 'home'],
    ['/pricing', 'pricing'],
    ['/pricing/', 'pricing'],
    ['/blog', 'blog'],
    ['/docs', 'docs'],
    ['/legal/terms', 'legal.terms'],
    ['/legal/privacy', 'legal.privacy'],
    ['/auth/login', 'login'],
    ['/auth/register', 'register'],
  ])('%s is the public page %s', (path, key) => {
    expect(seoRouteFor(path)).toMatchObject({ key, indexable: true });
  });

  it('takes blog posts, docs pages and legal pages from the content', () => {
    expect(seoRouteFor('/blog/introducing-atelier')).toEqual({ key: 'blog', indexable: true, content: { section: 'blog', slug: 'introducing-atelier' } });
    expect(seoRouteFor('/docs/api')).toEqual({ key: 'docs', indexable: true, content: { section: 'docs', slug: 'api' } });
    expect(seoRouteFor('/legal/refund')).toEqual({ key: 'legal.refund', indexable: true, content: { section: 'legal', slug: 'refund' } });
    // An unknown legal page still asks the content; without a document it is a 404.
    expect(seoRouteFor('/legal/imprint')).toMatchObject({ key: 'notFound', content: { section: 'legal', slug: 'imprint' } });
  });

  it.each([
    ['/dashboard', 'dashboard.home'],
    ['/dashboard/home', 'dashboard.home'],
    ['/dashboard/image', 'dashboard.image'],
    ['/dashboard/image/42', 'dashboard.image'],
    ['/dashboard/image/create/text-to-image', 'dashboard.textToImage'],
    ['/dashboard/image/create/image-to-image', 'dashboard.imageToImage'],
    ['/dashboard/video/create', 'dashboard.video'],
    ['/dashboard/music', 'dashboard.music'],
    ['/dashboard/chat', 'dashboard.chat'],
    ['/dashboard/api', 'dashboard.api'],
    ['/user/orders', 'user.orders'],
    ['/user/profile', 'user.profile'],
    ['/user/admin', 'user.admin'],
    ['/auth/update-password', 'resetPassword'],
    ['/auth/callback', 'login'],
    ['/test', 'diagnostics'],
    ['/no/such/page', 'notFound'],
    ['/dashboardx', 'notFound'],
    ['/blog/Bad_Slug', 'notFound'],
  ])('%s is the private page %s (noindex)', (path, key) => {
    expect(seoRouteFor(path)).toEqual({ key, indexable: false });
  });

  it('lists only public, indexable pages for the sitemaps', () => {
    for (const path of PUBLIC_PATHS) expect(seoRouteFor(path).indexable, path).toBe(true);
  });
});

describe('seo strings', () => {
  it.each(LANGUAGES)('%s has a title and a description for every key', (lang) => {
    const c = catalogue(lang);
    for (const key of SEO_KEYS) {
      const s = seoStrings(c, key);
      expect(s, `${lang} seo.${key}`).not.toBeNull();
      expect(s!.title).toMatch(/Atelier/);
      expect(s!.description.trim(), `${lang} seo.${key}.description`).not.toBe('');
    }
  });

  it('titles content in the site format, keeping the title text as it is', () => {
    expect(contentTitle(catalogue('en'), 'Introducing $& things')).toBe('Introducing $& things · Atelier');
    expect(contentTitle(null, 'Hello')).toBe('Hello · Atelier');
  });

  it('answers null for a key the catalogue does not have', () => {
    expect(seoStrings(catalogue('en'), 'nope')).toBeNull();
    expect(seoStrings({}, 'home')).toBeNull();
  });
});
