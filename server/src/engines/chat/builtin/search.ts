/**
 * The retrieval index over the product's own Markdown docs: one BM25 index per language, each
 * passage a section of a document (split at its headings). Indexes are built on first use and
 * kept; the files are looked at again at most every few seconds and an index is rebuilt only
 * when one of its files changed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDoc, type Unit } from './markdown.ts';
import { tokenize, type ChatLanguage } from './tokenize.ts';

export const DOC_SECTIONS = ['docs', 'blog', 'legal'] as const;
export type DocSectionName = (typeof DOC_SECTIONS)[number];

export interface Passage {
  lang: ChatLanguage;
  section: DocSectionName;
  slug: string;
  docTitle: string;
  /** Plain-text heading ('' for the top of a page). */
  heading: string;
  anchor: string;
  /** Where the passage lives on the site, e.g. `/ja/docs/api#webhooks`. */
  url: string;
  /** Document title › heading. */
  title: string;
  units: Unit[];
  /** Position among the document's sections, and how many it has: translations line up by these. */
  ordinal: number;
  docSections: number;
}

export interface Hit {
  passage: Passage;
  score: number;
  /** Share of the question's own weight (IDF) that this passage contains, 0..1. */
  coverage: number;
  matched: Set<string>;
}

/** Weighted query terms: the last question at 1, earlier context lower. */
export type Query = Map<string, number>;

const K1 = 1.2;
const HEADING_BONUS = 1.5;
const B = 0.75;
/** Official docs answer "how do I" questions better than posts and policies. */
const SECTION_BOOST: Record<DocSectionName, number> = { docs: 1.25, blog: 1, legal: 0.95 };

export function sitePath(lang: ChatLanguage, section: DocSectionName, slug: string, anchor: string): string {
  const path = `${lang === 'en' ? '' : `/${lang}`}/${section}/${slug}`;
  return anchor ? `${path}#${anchor}` : path;
}

export class LanguageIndex {
  readonly lang: ChatLanguage;
  readonly passages: Passage[] = [];
  private readonly tfs: Map<string, number>[] = [];
  /** Terms of each passage's own heading (1) and of its parent heading (0.5). */
  private readonly headingTerms: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private avgLength = 1;
  private readonly unitTerms = new WeakMap<Unit, Set<string>>();

  constructor(lang: ChatLanguage) {
    this.lang = lang;
  }

  add(passage: Passage, indexText: string, headingText: string, parentHeading: string): void {
    const terms = [
      ...tokenize(passage.docTitle, this.lang),
      ...tokenize(parentHeading, this.lang),
      ...tokenize(headingText, this.lang),
      ...tokenize(headingText, this.lang),
      ...tokenize(indexText, this.lang),
    ];
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    const heads = new Map<string, number>();
    for (const t of tokenize(parentHeading, this.lang)) heads.set(t, 0.5);
    for (const t of tokenize(headingText, this.lang)) heads.set(t, 1);
    this.passages.push(passage);
    this.headingTerms.push(heads);
    this.tfs.push(tf);
    this.lengths.push(terms.length);
  }

  /** The same section of the same document in this language, when the translation lines up. */
  counterpart(p: Passage): Passage | null {
    const q = this.byPosition.get(`${p.section}/${p.slug}#${p.ordinal}`);
    return q && q.docSections === p.docSections ? q : null;
  }

  private readonly byPosition = new Map<string, Passage>();

  finish(): void {
    for (const p of this.passages) this.byPosition.set(`${p.section}/${p.slug}#${p.ordinal}`, p);
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length) || 1;
  }

  get size(): number {
    return this.passages.length;
  }

  idf(term: string): number {
    const n = this.passages.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The weight an unknown term carries in the coverage: enough that off-topic words count. */
  private unknownWeight(): number {
    return Math.log(1 + this.passages.length) * 0.7;
  }

  termsOf(unit: Unit): Set<string> {
    let terms = this.unitTerms.get(unit);
    if (!terms) {
      terms = new Set(tokenize(unit.text, this.lang));
      this.unitTerms.set(unit, terms);
    }
    return terms;
  }

  /** Weight of a query term for coverage and sentence scoring. */
  weight(term: string): number {
    return this.df.has(term) ? this.idf(term) : this.unknownWeight();
  }

  search(query: Query, limit = 8): Hit[] {
    if (query.size === 0) return [];
    let total = 0;
    // Coverage is about the question itself (weight 1), not the borrowed context.
    for (const [t, w] of query) if (w >= 1) total += this.weight(t);
    const hits: Hit[] = [];
    for (let i = 0; i < this.passages.length; i++) {
      const tf = this.tfs[i]!;
      const len = this.lengths[i]!;
      const heads = this.headingTerms[i]!;
      let score = 0;
      let covered = 0;
      const matched = new Set<string>();
      for (const [t, w] of query) {
        const f = tf.get(t);
        if (!f) continue;
        const idf = this.idf(t);
        score += w * idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / this.avgLength)));
        // A question that names what a heading names is about that section.
        score += w * idf * HEADING_BONUS * (heads.get(t) ?? 0);
        if (w >= 1) covered += this.weight(t);
        matched.add(t);
      }
      if (score <= 0) continue;
      const passage = this.passages[i]!;
      hits.push({ passage, score: score * SECTION_BOOST[passage.section], coverage: total > 0 ? covered / total : 0, matched });
    }
    hits.sort((a, b) => b.score - a.score || a.passage.url.localeCompare(b.passage.url));
    return hits.slice(0, limit);
  }
}

interface FileInfo {
  path: string;
  section: DocSectionName;
  slug: string;
  key: string;
}

async function listFiles(contentDir: string, lang: ChatLanguage): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  await Promise.all(
    DOC_SECTIONS.map(async (section) => {
      let slugs: string[];
      try {
        slugs = (await readdir(join(contentDir, section), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
      } catch {
        return;
      }
      await Promise.all(
        slugs
          .filter((slug) => /^[a-z0-9][a-z0-9-]*$/.test(slug))
          .map(async (slug) => {
            const path = join(contentDir, section, slug, `${lang}.md`);
            try {
              const s = await stat(path);
              if (s.isFile()) out.push({ path, section, slug, key: `${path}:${s.mtimeMs}:${s.size}` });
            } catch {
              /* not written in this language */
            }
          }),
      );
    }),
  );
  out.sort((a, b) => a.path.localeCompare(b.path));
  return out;
}

async function buildIndex(lang: ChatLanguage, files: FileInfo[]): Promise<LanguageIndex> {
  const index = new LanguageIndex(lang);
  const sources = await Promise.all(files.map((f) => readFile(f.path, 'utf8')));
  files.forEach((file, i) => {
    const doc = parseDoc(sources[i]!);
    const docTitle = doc.meta.title ?? doc.sections.find((s) => s.level === 1)?.headingText ?? file.slug;
    let parent = '';
    doc.sections.forEach((s, ordinal) => {
      if (s.level <= 2) parent = s.level === 2 ? s.headingText : '';
      const heading = s.level === 1 ? '' : s.headingText;
      const passage: Passage = {
        lang,
        section: file.section,
        slug: file.slug,
        docTitle,
        heading,
        anchor: s.anchor,
        url: sitePath(lang, file.section, file.slug, s.anchor),
        title: heading ? `${docTitle} › ${heading}` : docTitle,
        units: s.units,
        ordinal,
        docSections: doc.sections.length,
      };
      // The page top also carries the description, which summarises the whole page.
      const extra = s.level === 1 ? ` ${doc.meta.description ?? ''}` : '';
      // The page top is "headed" by the document's title.
      index.add(passage, s.text + extra, heading || docTitle, s.level === 3 ? parent : '');
    });
  });
  index.finish();
  return index;
}

/** Per-language indexes over one content directory, built lazily and refreshed when files change. */
export class DocsLibrary {
  readonly contentDir: string;
  private readonly recheckMs: number;
  private readonly entries = new Map<ChatLanguage, { signature: string; checkedAt: number; index: Promise<LanguageIndex> }>();
  private readonly checking = new Map<ChatLanguage, Promise<LanguageIndex>>();

  constructor(contentDir: string, options: { recheckMs?: number } = {}) {
    this.contentDir = contentDir;
    this.recheckMs = options.recheckMs ?? 5000;
  }

  index(lang: ChatLanguage): Promise<LanguageIndex> {
    const entry = this.entries.get(lang);
    if (entry && Date.now() - entry.checkedAt < this.recheckMs) return entry.index;
    // One look at the files at a time per language; concurrent callers share it.
    let pending = this.checking.get(lang);
    if (!pending) {
      pending = this.refresh(lang).finally(() => this.checking.delete(lang));
      this.checking.set(lang, pending);
    }
    return pending;
  }

  private async refresh(lang: ChatLanguage): Promise<LanguageIndex> {
    const now = Date.now();
    const files = await listFiles(this.contentDir, lang);
    const signature = files.map((f) => f.key).join('|');
    const again = this.entries.get(lang);
    if (again && again.signature === signature) {
      again.checkedAt = now;
      return again.index;
    }
    const index = buildIndex(lang, files);
    this.entries.set(lang, { signature, checkedAt: now, index });
    index.catch(() => this.entries.delete(lang));
    return index;
  }
}
