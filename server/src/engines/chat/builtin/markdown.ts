/**
 * Just enough Markdown for the docs assistant: front matter, sections by heading (outside code
 * fences), and the units an answer can quote (sentences, list items, table rows), each with a
 * plain-text form for search and the original inline Markdown for display.
 */
import { parse as parseYaml } from 'yaml';

export interface DocMeta {
  title?: string;
  description?: string;
}

export interface Unit {
  /** 'sentence' from a paragraph, 'item' from a list (with its marker), 'row' from a table. */
  kind: 'sentence' | 'item' | 'row';
  /** As written, inline Markdown kept (links, code, emphasis). */
  markdown: string;
  /** Plain text for matching. */
  text: string;
  /** Index of the block (paragraph, list or table) it belongs to. */
  block: number;
  /** For list items: the ordered-list number, if any. */
  ordinal?: number;
  /** A table's header row: labels, not content. */
  header?: boolean;
}

export interface DocSection {
  heading: string;
  /** Plain text of the heading. */
  headingText: string;
  level: number;
  /** GitHub-style slug of the heading; '' for the part before the first heading below the title. */
  anchor: string;
  units: Unit[];
  /** All the plain text of the section, code blocks included, for the index. */
  text: string;
}

export interface ParsedDoc {
  meta: DocMeta;
  sections: DocSection[];
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(source: string): { meta: DocMeta; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { meta: {}, body: source };
  let data: unknown = null;
  try {
    data = parseYaml(match[1]!);
  } catch {
    data = null;
  }
  const meta: DocMeta = {};
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const raw = data as Record<string, unknown>;
    if (typeof raw.title === 'string' && raw.title.trim()) meta.title = raw.title.trim();
    if (typeof raw.description === 'string' && raw.description.trim()) meta.description = raw.description.trim();
  }
  return { meta, body: source.slice(match[0].length) };
}

/**
 * The anchor a heading gets, the way GitHub and most Markdown renderers make it: lower case,
 * punctuation dropped (letters and digits of every script kept), spaces to hyphens. Duplicates
 * within a page get `-1`, `-2`… (see `uniqueSlugger`).
 */
export function slugifyHeading(heading: string): string {
  return inlineToText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function uniqueSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = slugifyHeading(heading);
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };
}

/** Inline Markdown to plain text: links and images to their text, code and emphasis unwrapped. */
export function inlineToText(md: string): string {
  return md
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*_])[*_]([^*_\s][^*_]*?)[*_](?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Splits a paragraph into sentences: after . ! ? (followed by a space and not inside an inline
 * code span or a common abbreviation) and after the CJK full stops 。！？.
 */
export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inCode = false;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i]!;
    if (c === '`') inCode = !inCode;
    if (inCode) continue;
    if (c === '。' || c === '！' || c === '？') {
      out.push(paragraph.slice(start, i + 1));
      start = i + 1;
    } else if ((c === '.' || c === '!' || c === '?') && /\s/.test(paragraph[i + 1] ?? '') && !/(?:\b(?:e\.g|i\.e|etc|vs|z\.B|d\.h|bzw|ca|usw|p\.ex|ex|Dr|Mr|Mrs|Nr|No)|\d)$/i.test(paragraph.slice(Math.max(0, i - 5), i))) {
      out.push(paragraph.slice(start, i + 1));
      start = i + 1;
    }
  }
  out.push(paragraph.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Parses a whole Markdown document (front matter included) into sections and units. */
export function parseDoc(source: string): ParsedDoc {
  const { meta, body } = splitFrontMatter(source);
  const slug = uniqueSlugger();
  const sections: DocSection[] = [];
  let current: DocSection = { heading: '', headingText: '', level: 1, anchor: '', units: [], text: '' };
  let block = 0;
  let paragraph: string[] = [];
  let inFence = false;
  let fence = '';
  const textParts: string[] = [];

  const flushParagraph = () => {
    if (paragraph.length === 0) return;
    const joined = paragraph.join(' ').trim();
    paragraph = [];
    if (!joined) return;
    for (const s of splitSentences(joined)) current.units.push({ kind: 'sentence', markdown: s, text: inlineToText(s), block });
    block++;
  };
  const closeSection = () => {
    flushParagraph();
    // One pass of inline clean-up for the whole section (cheaper than one per line).
    current.text = inlineToText(textParts.join('\n'));
    textParts.length = 0;
    if (current.units.length > 0 || current.heading) sections.push(current);
  };

  let lastWasList = false;
  let lastWasTable = false;
  for (const rawLine of body.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+$/, '');
    const fenceMatch = /^\s*(```+|~~~+)/.exec(line);
    if (fenceMatch) {
      if (!inFence) {
        flushParagraph();
        inFence = true;
        fence = fenceMatch[1]!.slice(0, 3);
      } else if (line.trim().startsWith(fence)) {
        inFence = false;
        block++;
      }
      continue;
    }
    if (inFence) {
      // Code is searchable (endpoint paths, header names) but never quoted.
      textParts.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      closeSection();
      const level = heading[1]!.length;
      const text = heading[2]!;
      current = { heading: text, headingText: inlineToText(text), level, anchor: level === 1 ? '' : slug(text), units: [], text: '' };
      textParts.push(text);
      block++;
      lastWasList = lastWasTable = false;
      continue;
    }
    if (!line.trim()) {
      flushParagraph();
      if (lastWasList || lastWasTable) block++;
      lastWasList = lastWasTable = false;
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      if (!lastWasList) block++;
      lastWasList = true;
      const ordinal = item[2] ? Number(item[2]) : undefined;
      const content = item[3]!;
      const markdown = ordinal !== undefined ? `${ordinal}. ${content}` : `- ${content}`;
      current.units.push({ kind: 'item', markdown, text: inlineToText(content), block, ...(ordinal !== undefined ? { ordinal } : {}) });
      textParts.push(content);
      continue;
    }
    if (/^\s*\|/.test(line)) {
      flushParagraph();
      if (!lastWasTable) block++;
      lastWasTable = true;
      const cells = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
      const markdown = cells.filter(Boolean).join(' — ');
      const header = !current.units.some((u) => u.block === block);
      current.units.push({ kind: 'row', markdown, text: inlineToText(markdown), block, ...(header ? { header } : {}) });
      textParts.push(markdown);
      continue;
    }
    if (/^\s*>/.test(line)) {
      paragraph.push(line.replace(/^\s*>\s?/, ''));
      textParts.push(line.replace(/^\s*>\s?/, ''));
      continue;
    }
    if (lastWasList && /^\s{2,}\S/.test(rawLine) && current.units.length > 0) {
      // A continuation line of a list item.
      const last = current.units[current.units.length - 1]!;
      last.markdown += ` ${line.trim()}`;
      last.text = inlineToText(last.markdown.replace(/^(?:\d+\.|-)\s+/, ''));
      textParts.push(line);
      continue;
    }
    lastWasList = lastWasTable = false;
    paragraph.push(line.trim());
    textParts.push(line);
  }
  closeSection();
  return { meta, sections };
}
