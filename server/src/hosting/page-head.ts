import { LANGUAGES, localePath, splitLocalePath, type Language } from '@atelier/i18n/locale';
import { contentTitle, seoRouteFor, seoStrings, type SeoRoute } from '@atelier/i18n/seo';
import type { ContentEntry } from '../domain/content.ts';

/** Open Graph wants language_TERRITORY. */
export const OG_LOCALES: Record<Language, string> = {
  en: 'en_US',
  zh: 'zh_CN',
  ru: 'ru_RU',
  de: 'de_DE',
  fr: 'fr_FR',
  ja: 'ja_JP',
  ko: 'ko_KR',
  es: 'es_ES',
  pt: 'pt_BR',
  tr: 'tr_TR',
};

const SITE_NAME = 'Atelier';

export interface Alternate {
  hreflang: Language | 'x-default';
  href: string;
}

export interface PageHead {
  lang: Language;
  title: string;
  description: string;
  /** `noindex` for the dashboard, user, 404 and other private pages; null for public pages. */
  robots: string | null;
  canonical: string | null;
  alternates: Alternate[];
  og: { type: 'website' | 'article'; title: string; description: string; url: string; locale: string; localeAlternates: string[] } | null;
  /** False for an unknown path, and where the URL names a blog post, docs page or legal page that does not exist. */
  found: boolean;
}

export interface PageHeadInput {
  /** The request path, with its language prefix if any (`/ja/pricing`). */
  urlPath: string;
  /** The public site URL, without a trailing slash. */
  siteUrl: string;
  /** The common namespace (`shared/i18n/src/locales/<lang>.json`) of every language. */
  catalogues: Partial<Record<Language, unknown>>;
  /** For blog, docs and legal URLs: the documents of that slug, or null when there are none. */
  content?: ContentEntry | null;
  /** No remote owns the path: the 404 page. */
  unknown?: boolean;
}

/** The absolute URL of a language-less path in a language: English unprefixed, others prefixed. */
export function pageUrl(siteUrl: string, lang: Language, path: string): string {
  return siteUrl.replace(/\/+$/, '') + localePath(lang === 'en' ? null : lang, path);
}

/** hreflang alternates: each language the page exists in, then x-default (the unprefixed URL). */
export function alternatesFor(siteUrl: string, path: string, languages: readonly Language[] = LANGUAGES): Alternate[] {
  const out: Alternate[] = languages.map((l) => ({ hreflang: l, href: pageUrl(siteUrl, l, path) }));
  if (languages.includes('en')) out.push({ hreflang: 'x-default', href: pageUrl(siteUrl, 'en', path) });
  return out;
}

/** The languages a content entry is written in, in the order of LANGUAGES. */
export function contentLanguages(entry: ContentEntry): Language[] {
  return LANGUAGES.filter((l) => entry.docs[l] !== undefined);
}

const normalize = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/');

/**
 * The head of a page: language, title, description, and for public pages the canonical link,
 * hreflang alternates and Open Graph tags. Pure: the caller supplies catalogues and content.
 */
export function pageHead(input: PageHeadInput): PageHead {
  const { prefix, path: rawPath } = splitLocalePath(input.urlPath);
  const lang: Language = prefix ?? 'en';
  const path = normalize(rawPath);
  let route: SeoRoute = input.unknown ? { key: 'notFound', indexable: false } : seoRouteFor(path);
  let found = !input.unknown;
  const entry = route.content ? input.content : null;
  if (route.content && (!entry || contentLanguages(entry).length === 0)) {
    route = { key: 'notFound', indexable: false };
    found = false;
  }
  const catalogue = input.catalogues[lang];
  const strings = seoStrings(catalogue, route.key) ?? seoStrings(input.catalogues.en, route.key) ?? { title: SITE_NAME, description: '' };
  let { title, description } = strings;

  let languages: Language[] = [...LANGUAGES];
  let canonicalLang = lang;
  if (entry) {
    languages = contentLanguages(entry);
    // A document missing in this language shows the English one (or the first there is), so
    // that is the page search engines should index.
    if (!entry.docs[lang]) canonicalLang = languages.includes('en') ? 'en' : languages[0]!;
    const doc = entry.docs[lang] ?? entry.docs[canonicalLang]!;
    if (doc.title) title = contentTitle(catalogue ?? input.catalogues.en, doc.title);
    if (doc.description) description = doc.description;
  }

  if (!route.indexable) {
    return { lang, title, description, robots: 'noindex', canonical: null, alternates: [], og: null, found };
  }
  const canonical = pageUrl(input.siteUrl, canonicalLang, path);
  return {
    lang,
    title,
    description,
    robots: null,
    canonical,
    alternates: alternatesFor(input.siteUrl, path, languages),
    og: {
      type: route.content?.section === 'blog' ? 'article' : 'website',
      title,
      description,
      url: canonical,
      locale: OG_LOCALES[canonicalLang],
      localeAlternates: languages.filter((l) => l !== canonicalLang).map((l) => OG_LOCALES[l]),
    },
    found,
  };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Safe in element text and in quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** The tags for `<head>` (everything but `<html lang>`), one per line. */
export function renderHead(head: PageHead): string {
  const e = escapeHtml;
  const tags = [`<title>${e(head.title)}</title>`, `<meta name="description" content="${e(head.description)}" />`];
  if (head.robots) tags.push(`<meta name="robots" content="${e(head.robots)}" />`);
  if (head.canonical) tags.push(`<link rel="canonical" href="${e(head.canonical)}" />`);
  for (const a of head.alternates) tags.push(`<link rel="alternate" hreflang="${e(a.hreflang)}" href="${e(a.href)}" />`);
  if (head.og) {
    tags.push(
      `<meta property="og:type" content="${e(head.og.type)}" />`,
      `<meta property="og:site_name" content="${SITE_NAME}" />`,
      `<meta property="og:title" content="${e(head.og.title)}" />`,
      `<meta property="og:description" content="${e(head.og.description)}" />`,
      `<meta property="og:url" content="${e(head.og.url)}" />`,
      `<meta property="og:locale" content="${e(head.og.locale)}" />`,
      ...head.og.localeAlternates.map((l) => `<meta property="og:locale:alternate" content="${e(l)}" />`),
    );
  }
  return tags.join('\n    ');
}

/** Tags the shell's template may already carry that the page head replaces. */
const REPLACED = [
  /[ \t]*<title\b[^>]*>[\s\S]*?<\/title>[ \t]*\r?\n?/gi,
  /[ \t]*<meta\s[^>]*\bname=["']?(?:description|robots)\b[^>]*>[ \t]*\r?\n?/gi,
  /[ \t]*<meta\s[^>]*\bproperty=["']?og:[^>]*>[ \t]*\r?\n?/gi,
  /[ \t]*<link\s[^>]*\brel=["']?(?:canonical|alternate)\b[^>]*>[ \t]*\r?\n?/gi,
];

/**
 * Puts the head into the shell's index.html: sets `<html lang>`, replaces the template's title
 * and description (and any canonical, alternate, robots or Open Graph tags) with the page's,
 * where the template's title was, or at the end of `<head>`.
 */
export function injectHead(html: string, head: PageHead): string {
  let out = html.replace(/<html\b([^>]*)>/i, (_m, attrs: string) => {
    const rest = attrs.replace(/\s+lang\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*)/i, '');
    return `<html lang="${escapeHtml(head.lang)}"${rest}>`;
  });
  const headStart = /<head\b[^>]*>/i.exec(out);
  const headEnd = out.search(/<\/head>/i);
  if (!headStart || headEnd < 0) return out;
  const from = headStart.index + headStart[0].length;
  let inner = out.slice(from, headEnd);
  const titleAt = inner.search(/<title\b/i);
  const marker = '\u0000atelier-head\u0000';
  if (titleAt >= 0) inner = `${inner.slice(0, titleAt)}${marker}${inner.slice(titleAt)}`;
  for (const pattern of REPLACED) inner = inner.replace(pattern, '');
  const tags = renderHead(head);
  // A function replacement: `$&` in a title must stay text.
  inner = inner.includes(marker) ? inner.replace(marker, () => `${tags}\n`) : `${inner}  ${tags}\n  `;
  out = out.slice(0, from) + inner + out.slice(headEnd);
  return out;
}
