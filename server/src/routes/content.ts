import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  BlogList,
  BlogListQuery,
  ContentDocument,
  ContentDocumentParams,
  ContentLanguageQuery,
  ContentList,
  ContentListParams,
  type ContentSummary,
} from '@atelier/api/schemas';
import { LANGUAGES, type Language } from '@atelier/i18n/locale';
import type { ContentEntry, ContentMeta } from '../domain/content.ts';
import { notFound } from '../domain/errors.ts';
import type { AppEnv } from '../http/appEnv.ts';
import { requestLanguage } from '../http/errorCatalogue.ts';
import { createRouter, errorResponses, jsonContent } from '../http/openapi.ts';
import type { Services } from '../services.ts';

const tags = ['content'];
const LANGUAGE_NOTE =
  '`lang` left out means the language cookie, then Accept-Language, then English. A document not written in the language is served in English (else in the first language it has); `language` says which was served.';

const blogList = createRoute({
  method: 'get',
  path: '/content/blog',
  tags,
  summary: 'Blog posts, newest first',
  description: `Paginated; \`total\` counts every post. ${LANGUAGE_NOTE}`,
  request: { query: BlogListQuery },
  responses: { 200: jsonContent(BlogList, 'One page of posts'), ...errorResponses(400) },
});

const sectionList = createRoute({
  method: 'get',
  path: '/content/{section}',
  tags,
  summary: 'Docs pages or legal pages',
  description: `Docs by their \`order\`, legal pages by slug. ${LANGUAGE_NOTE}`,
  request: { params: ContentListParams, query: ContentLanguageQuery },
  responses: { 200: jsonContent(ContentList, 'Every page of the section'), ...errorResponses(400) },
});

const document = createRoute({
  method: 'get',
  path: '/content/{section}/{slug}',
  tags,
  summary: 'One blog post, docs page or legal page',
  description: `Front matter and the raw Markdown body (render it without raw HTML). ${LANGUAGE_NOTE}`,
  request: { params: ContentDocumentParams, query: ContentLanguageQuery },
  responses: { 200: jsonContent(ContentDocument, 'The document'), ...errorResponses(400, 404) },
});

/** The language to serve an entry in: the one asked for, else English, else the first it has. */
function servedLanguage(entry: ContentEntry, wanted: Language): Language | null {
  if (entry.docs[wanted]) return wanted;
  if (entry.docs.en) return 'en';
  return LANGUAGES.find((l) => entry.docs[l]) ?? null;
}

function summary(entry: ContentEntry, language: Language, meta: ContentMeta): ContentSummary {
  return {
    slug: entry.slug,
    language,
    languages: LANGUAGES.filter((l) => entry.docs[l]),
    // A document without front matter still has a name to show.
    title: meta.title ?? entry.slug,
    ...(meta.description !== undefined ? { description: meta.description } : {}),
    ...(meta.date !== undefined ? { date: meta.date } : {}),
    ...(meta.author !== undefined ? { author: meta.author } : {}),
    ...(meta.tags !== undefined ? { tags: meta.tags } : {}),
    ...(meta.order !== undefined ? { order: meta.order } : {}),
  };
}

function summaries(entries: ContentEntry[], wanted: Language): ContentSummary[] {
  return entries.flatMap((entry) => {
    const language = servedLanguage(entry, wanted);
    return language ? [summary(entry, language, entry.docs[language]!)] : [];
  });
}

export function contentRoutes(services: Services) {
  const { content } = services;
  const app = createRouter();

  function wantedLanguage(c: Context<AppEnv>, lang: Language | undefined): Language {
    if (lang) return lang;
    c.header('vary', 'accept-language, cookie');
    return requestLanguage({ cookie: c.req.header('cookie'), acceptLanguage: c.req.header('accept-language') });
  }

  app.openapi(blogList, async (c) => {
    const { lang, page, pageSize } = c.req.valid('query');
    const posts = (await content.snapshot()).blog;
    const items = summaries(posts.slice((page - 1) * pageSize, page * pageSize), wantedLanguage(c, lang));
    return c.json({ items, page, pageSize, total: posts.length }, 200);
  });

  app.openapi(sectionList, async (c) => {
    const { section } = c.req.valid('param');
    const { lang } = c.req.valid('query');
    const entries = (await content.snapshot())[section];
    return c.json({ section, items: summaries(entries, wantedLanguage(c, lang)) }, 200);
  });

  app.openapi(document, async (c) => {
    const { section, slug } = c.req.valid('param');
    const { lang } = c.req.valid('query');
    // Only a slug the index listed is ever turned into a file path.
    const entry = await content.entry(section, slug);
    const language = entry && servedLanguage(entry, wantedLanguage(c, lang));
    const doc = language ? await content.document(section, slug, language) : null;
    if (!entry || !language || !doc) throw notFound('document');
    return c.json({ ...summary(entry, language, doc.meta), section, markdown: doc.markdown }, 200);
  });

  return app;
}
