/**
 * Blog posts, docs pages and legal pages: `<dir>/<section>/<slug>/<lang>.md`, Markdown with YAML
 * front matter. The API serves them and the deploy root builds page heads and sitemaps from them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LANGUAGES, type Language } from '@atelier/i18n/locale';
import type { ContentSection } from '@atelier/i18n/seo';

/** What the API, the page heads and the sitemaps use from one Markdown document's front matter. */
export interface ContentMeta {
  title?: string;
  description?: string;
  /** Blog posts: `YYYY-MM-DD`. */
  date?: string;
  author?: string;
  tags?: string[];
  /** Docs pages: position in the docs navigation. */
  order?: number;
}

/** One slug of a section and the languages it is written in. */
export interface ContentEntry {
  slug: string;
  docs: Partial<Record<Language, ContentMeta>>;
}

export type ContentSnapshot = Record<ContentSection, ContentEntry[]>;

export interface ContentIndex {
  /** Every section's slugs: blog newest first, docs by `order`, legal by slug. */
  snapshot(): Promise<ContentSnapshot>;
  entry(section: ContentSection, slug: string): Promise<ContentEntry | null>;
  /**
   * A document's front matter and Markdown body. Only a slug and language the listing holds is
   * read, so nothing outside the content directory can be named.
   */
  document(section: ContentSection, slug: string, lang: Language): Promise<MarkdownDocument | null>;
}

export interface MarkdownDocument {
  meta: ContentMeta;
  /** The Markdown after the front matter. */
  markdown: string;
}

export const CONTENT_SECTIONS: readonly ContentSection[] = ['blog', 'docs', 'legal'];
/** The same rule as the API's ContentSlug: a folder it could not name is not listed. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The Markdown after the front matter block (all of it when there is none), without leading blank lines. */
export function markdownBody(text: string): string {
  const match = FRONT_MATTER.exec(text);
  return (match ? text.slice(match[0].length) : text.replace(/^\uFEFF/, '')).replace(/^(?:[ \t]*\r?\n)+/, '');
}

/**
 * The front matter of a Markdown document (`---` YAML `---` at the very top), or null when it has
 * none or it is not valid YAML. Only the fields the site uses are kept, each only when it has the
 * expected type.
 */
export function parseFrontMatter(text: string): ContentMeta | null {
  const match = FRONT_MATTER.exec(text);
  if (!match) return null;
  let data: unknown;
  try {
    data = parse(match[1]!);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const raw = data as Record<string, unknown>;
  const meta: ContentMeta = {};
  const text_ = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const title = text_(raw.title);
  if (title) meta.title = title;
  const description = text_(raw.description);
  if (description) meta.description = description;
  const date = raw.date instanceof Date ? raw.date.toISOString().slice(0, 10) : text_(raw.date);
  if (date && DATE.test(date) && !Number.isNaN(Date.parse(date))) meta.date = date;
  const author = text_(raw.author);
  if (author) meta.author = author;
  if (Array.isArray(raw.tags)) meta.tags = raw.tags.filter((t) => typeof t === 'string' || typeof t === 'number').map(String);
  if (typeof raw.order === 'number' && Number.isFinite(raw.order)) meta.order = raw.order;
  return meta;
}

async function subdirectories(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

function sortEntries(section: ContentSection, entries: ContentEntry[]): ContentEntry[] {
  const pick = (e: ContentEntry) => e.docs.en ?? Object.values(e.docs)[0] ?? {};
  const bySlug = (a: ContentEntry, b: ContentEntry) => a.slug.localeCompare(b.slug);
  if (section === 'blog') return entries.sort((a, b) => (pick(b).date ?? '').localeCompare(pick(a).date ?? '') || bySlug(a, b));
  if (section === 'docs') return entries.sort((a, b) => (pick(a).order ?? Infinity) - (pick(b).order ?? Infinity) || bySlug(a, b));
  return entries.sort(bySlug);
}

/**
 * Lists `<dir>/<section>/<slug>/<lang>.md` with each document's front matter. The listing is
 * kept in memory and looked at again at most every `maxAgeMs`; a document is read and parsed
 * again only when its size or modification time changed.
 */
export function createContentIndex(dir: string, options: { maxAgeMs?: number } = {}): ContentIndex {
  const maxAgeMs = options.maxAgeMs ?? 2000;
  const parsed = new Map<string, { key: string; meta: ContentMeta | null; markdown: string }>();
  let current: { at: number; snapshot: ContentSnapshot } | null = null;
  let scanning: Promise<ContentSnapshot> | null = null;

  /** A document, read again only when its size or modification time changed; undefined when absent. */
  async function load(file: string) {
    let s;
    try {
      s = await stat(file);
    } catch {
      return undefined;
    }
    if (!s.isFile()) return undefined;
    const key = `${s.mtimeMs}:${s.size}`;
    const hit = parsed.get(file);
    if (hit?.key === key) return hit;
    const text = await readFile(file, 'utf8');
    const meta = parseFrontMatter(text);
    if (!meta) console.warn(`content: ${file} has no valid front matter; its title falls back to the section's`);
    const entry = { key, meta, markdown: markdownBody(text) };
    parsed.set(file, entry);
    return entry;
  }

  async function document(file: string): Promise<ContentMeta | null | undefined> {
    return (await load(file))?.meta;
  }

  async function scan(): Promise<ContentSnapshot> {
    const snapshot = {} as ContentSnapshot;
    for (const section of CONTENT_SECTIONS) {
      const entries: ContentEntry[] = [];
      for (const slug of await subdirectories(join(dir, section))) {
        if (!SLUG.test(slug)) continue;
        const docs: ContentEntry['docs'] = {};
        await Promise.all(
          LANGUAGES.map(async (lang) => {
            const meta = await document(join(dir, section, slug, `${lang}.md`));
            if (meta !== undefined) docs[lang] = meta ?? {};
          }),
        );
        if (Object.keys(docs).length > 0) entries.push({ slug, docs });
      }
      snapshot[section] = sortEntries(section, entries);
    }
    return snapshot;
  }

  async function snapshot(): Promise<ContentSnapshot> {
    if (current && Date.now() - current.at < maxAgeMs) return current.snapshot;
    scanning ??= scan()
      .then((s) => {
        current = { at: Date.now(), snapshot: s };
        return s;
      })
      .finally(() => {
        scanning = null;
      });
    return scanning;
  }

  return {
    snapshot,
    async entry(section, slug) {
      return (await snapshot())[section].find((e) => e.slug === slug) ?? null;
    },
    async document(section, slug, lang) {
      const entry = (await snapshot())[section].find((e) => e.slug === slug);
      if (!entry?.docs[lang]) return null;
      const doc = await load(join(dir, section, entry.slug, `${lang}.md`));
      return doc ? { meta: doc.meta ?? {}, markdown: doc.markdown } : null;
    },
  };
}
