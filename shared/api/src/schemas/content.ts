import { z } from 'zod';
import { LANGUAGES } from '@atelier/contract';

/** Blog posts, docs pages and legal pages: Markdown with front matter, in up to ten languages. */
export const ContentSection = z.enum(['blog', 'docs', 'legal']).meta({ id: 'ContentSection' });
export type ContentSection = z.infer<typeof ContentSection>;

/** Lowercase letters, digits and hyphens: a slug can never name a path outside its section. */
export const ContentSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'lowercase letters, digits and hyphens')
  .meta({ example: 'getting-started' });

export const ContentLanguage = z.enum(LANGUAGES).meta({ id: 'ContentLanguage' });

/** `lang` left out: the language cookie, then Accept-Language, then English. */
export const ContentLanguageQuery = z.object({ lang: ContentLanguage.optional() });

export const BlogListQuery = ContentLanguageQuery.extend({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});

export const ContentDocumentParams = z.object({ section: ContentSection, slug: ContentSlug });
export const ContentListParams = z.object({ section: ContentSection.exclude(['blog']) });

/** One document's front matter, in the language served. */
export const ContentSummary = z
  .object({
    slug: ContentSlug,
    /** The language served: the one asked for, or English when the document is not written in it. */
    language: ContentLanguage,
    /** Every language the document is written in. */
    languages: z.array(ContentLanguage),
    title: z.string(),
    description: z.string().optional(),
    /** Blog posts: `YYYY-MM-DD`. */
    date: z.string().optional(),
    author: z.string().optional(),
    tags: z.array(z.string()).optional(),
    /** Docs pages: position in the navigation. */
    order: z.number().optional(),
  })
  .meta({ id: 'ContentSummary' });
export type ContentSummary = z.infer<typeof ContentSummary>;

export const BlogList = z
  .object({
    items: z.array(ContentSummary),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Posts in all; the last page is `ceil(total / pageSize)`. */
    total: z.number().int(),
  })
  .meta({ id: 'BlogList' });
export type BlogList = z.infer<typeof BlogList>;

/** Docs by `order`, legal pages by slug. */
export const ContentList = z
  .object({ section: ContentSection, items: z.array(ContentSummary) })
  .meta({ id: 'ContentList' });
export type ContentList = z.infer<typeof ContentList>;

export const ContentDocument = ContentSummary.extend({
  section: ContentSection,
  /** The Markdown body without its front matter, raw: render it without raw HTML. */
  markdown: z.string(),
}).meta({ id: 'ContentDocument' });
export type ContentDocument = z.infer<typeof ContentDocument>;
