/**
 * Which search-engine metadata a page gets, from its path without the language prefix. Pure and
 * free of React so the server (rendering the head before any script runs) and the shell (setting
 * `document.title` on client navigation) agree on one mapping.
 *
 * Titles and descriptions live in the common namespace under `seo.<key>.title` and
 * `seo.<key>.description`; blog, docs and legal pages take theirs from the Markdown front matter
 * when it exists, falling back to the section's strings.
 */

export type ContentSection = 'blog' | 'docs' | 'legal';

export const LEGAL_PAGES = ['terms', 'refund', 'cookies', 'privacy'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export interface SeoRoute {
  /** Dotted key under `seo` in the common namespace: `pricing`, `legal.terms`, `dashboard.image`. */
  key: string;
  /** A public page: canonical link, hreflang alternates and a place in the sitemaps. */
  indexable: boolean;
  /** Set where a Markdown document supplies the title and description. */
  content?: { section: ContentSection; slug: string };
}

/** The public pages that exist independently of content files, in sitemap order. */
export const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/pricing',
  '/blog',
  '/docs',
  ...LEGAL_PAGES.map((p) => `/legal/${p}`),
  '/auth/login',
  '/auth/register',
];

/** Every key `seoRouteFor` can answer; each has a title and a description in every language. */
export const SEO_KEYS: readonly string[] = [
  'home',
  'pricing',
  'blog',
  'docs',
  ...LEGAL_PAGES.map((p) => `legal.${p}`),
  'login',
  'register',
  'resetPassword',
  'diagnostics',
  'dashboard.home',
  'dashboard.image',
  'dashboard.textToImage',
  'dashboard.imageToImage',
  'dashboard.video',
  'dashboard.music',
  'dashboard.chat',
  'dashboard.api',
  'user.orders',
  'user.profile',
  'user.admin',
  'notFound',
];

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

const DASHBOARD: [prefix: string, key: string][] = [
  ['/dashboard/image/create/text-to-image', 'dashboard.textToImage'],
  ['/dashboard/image/create/image-to-image', 'dashboard.imageToImage'],
  ['/dashboard/image', 'dashboard.image'],
  ['/dashboard/video', 'dashboard.video'],
  ['/dashboard/music', 'dashboard.music'],
  ['/dashboard/chat', 'dashboard.chat'],
  ['/dashboard/api', 'dashboard.api'],
  ['/user/orders', 'user.orders'],
  ['/user/profile', 'user.profile'],
  ['/user/admin', 'user.admin'],
  ['/dashboard', 'dashboard.home'],
  ['/user', 'dashboard.home'],
];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const page = (key: string): SeoRoute => ({ key, indexable: true });
const noindex = (key: string): SeoRoute => ({ key, indexable: false });

/**
 * The metadata of a language-less path (`/pricing`, `/blog/introducing-atelier`,
 * `/dashboard/image`). A trailing slash is ignored. Unknown paths get `notFound`.
 */
export function seoRouteFor(pathname: string): SeoRoute {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname || '/';
  switch (path) {
    case '/':
      return page('home');
    case '/pricing':
      return page('pricing');
    case '/blog':
      return page('blog');
    case '/docs':
      return page('docs');
    case '/auth/login':
      return page('login');
    case '/auth/register':
      return page('register');
    case '/auth/callback':
      return noindex('login');
    case '/auth/update-password':
      return noindex('resetPassword');
    case '/test':
      return noindex('diagnostics');
  }
  const content = /^\/(blog|docs|legal)\/([^/]+)$/.exec(path);
  if (content && SLUG.test(content[2]!)) {
    const section = content[1] as ContentSection;
    const slug = content[2]!;
    // Whether the document exists is for whoever has the content index to say (the server).
    if (section === 'legal') {
      const key = (LEGAL_PAGES as readonly string[]).includes(slug) ? `legal.${slug}` : 'notFound';
      return { key, indexable: true, content: { section, slug } };
    }
    return { key: section, indexable: true, content: { section, slug } };
  }
  for (const [prefix, key] of DASHBOARD) if (under(path, prefix)) return noindex(key);
  return noindex('notFound');
}

/** Reads `seo.<key>.title|description` out of a common-namespace catalogue. */
export function seoStrings(catalogue: unknown, key: string): { title: string; description: string } | null {
  let node: unknown = (catalogue as { seo?: unknown } | null)?.seo;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const entry = node as { title?: unknown; description?: unknown } | undefined;
  if (typeof entry?.title !== 'string' || typeof entry.description !== 'string') return null;
  return { title: entry.title, description: entry.description };
}

/** A document title (from front matter) in the site's title format: `seo.contentTitle`. */
export function contentTitle(catalogue: unknown, title: string): string {
  const template = (catalogue as { seo?: { contentTitle?: unknown } } | null)?.seo?.contentTitle;
  return typeof template === 'string' ? template.replace(/\{\{\s*title\s*\}\}/g, () => title) : `${title} · Atelier`;
}
