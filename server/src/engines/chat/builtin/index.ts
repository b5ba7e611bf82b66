/**
 * The built-in offline chat engine: a docs assistant, not a language model. It searches the
 * product's own Markdown documentation (BM25 per language, CJK by character bigrams), quotes the
 * most relevant sentences with numbered citations, and says plainly when the docs have nothing
 * on the question. Answers stream word by word.
 */
import { fileURLToPath } from 'node:url';
import type { ChatChunk, ChatEngine, ChatMessage, ChatRequest, Citation, GenerationContext } from '../../types.ts';
import { chunkForStreaming, composeAnswer, isGreeting, PHRASES } from './answer.ts';
import { DocsLibrary, type Hit, type Query } from './search.ts';
import { approxTokens, CHAT_LANGUAGES, detectLanguage, isChatLanguage, tokenize, type ChatLanguage } from './tokenize.ts';

export { slugifyHeading, parseDoc } from './markdown.ts';
export { tokenize, detectLanguage, CHAT_LANGUAGES, type ChatLanguage } from './tokenize.ts';
export { DocsLibrary, sitePath } from './search.ts';

export interface BuiltinModelDescriptor {
  id: string;
  kind: 'image' | 'video' | 'music' | 'chat';
  engine: 'builtin';
  displayName: string;
  /** One honest line for model lists. */
  description: string;
  parameters: Record<string, { default: number; min: number; max: number; unit?: string }>;
}

export const BUILTIN_CHAT_MODEL = {
  id: 'atelier-docs-chat-1',
  kind: 'chat',
  engine: 'builtin',
  displayName: 'Atelier Docs Assistant 1',
  description:
    "Answers questions about Atelier by searching its own documentation and quoting it with citations, in the site's ten languages; a retrieval engine, not a language model.",
  parameters: {
    maxTokens: { default: 512, min: 16, max: 4096, unit: 'tokens' },
  },
} as const satisfies BuiltinModelDescriptor;

/** `<repo>/server/content`, next to this source tree. */
export const DEFAULT_CONTENT_DIR = fileURLToPath(new URL('../../../../content/', import.meta.url));

export interface BuiltinChatEngineOptions {
  contentDir?: string;
  /** How often the docs folder is looked at again for changed files, in ms (default 5000). */
  recheckMs?: number;
  /**
   * Languages whose index is built in the background as soon as the engine is created, so the
   * first question does not wait for it (default English; `false` for none).
   */
  prewarm?: readonly ChatLanguage[] | false;
}

export interface BuiltinChatEngine extends ChatEngine {
  /** Builds the indexes ahead of the first question (optional: they are built on first use). */
  warm(languages?: readonly ChatLanguage[]): Promise<void>;
}

/** Context from the conversation counts for less than the question itself. */
const CONTEXT_WEIGHT = 0.35;

function buildQuery(messages: readonly ChatMessage[], question: string, lang: ChatLanguage): { query: Query; termCount: number } {
  const query: Query = new Map();
  const primary = tokenize(question, lang);
  for (const t of primary) query.set(t, 1);
  const termCount = new Set(primary).size;
  if (termCount < 3) {
    // A short follow-up ("and with the SDK?") borrows the previous question's words.
    const users = messages.filter((m) => m.role === 'user');
    const previous = users[users.length - 2];
    if (previous) for (const t of tokenize(previous.content, lang)) if (!query.has(t)) query.set(t, CONTEXT_WEIGHT);
  }
  return { query, termCount };
}

interface Answer {
  text: string;
  citations: Citation[];
}

export function createBuiltinChatEngine(options: BuiltinChatEngineOptions = {}): BuiltinChatEngine {
  const library = new DocsLibrary(options.contentDir ?? DEFAULT_CONTENT_DIR, { recheckMs: options.recheckMs ?? 5000 });
  const prewarm = options.prewarm === false ? [] : (options.prewarm ?? ['en']);
  if (prewarm.length > 0) {
    // After the current task, so creating the engine stays instant; failures surface on first use.
    setImmediate(() => {
      for (const lang of prewarm) library.index(lang).catch(() => {});
    }).unref();
  }

  async function answer(request: ChatRequest): Promise<Answer> {
    const messages = Array.isArray(request.messages) ? request.messages : [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const question = typeof lastUser?.content === 'string' ? lastUser.content.trim() : '';
    const answerLang: ChatLanguage = isChatLanguage(request.language) ? request.language : detectLanguage(question);
    const phrases = PHRASES[answerLang];
    if (!question) return { text: phrases.empty, citations: [] };
    if (isGreeting(question)) return { text: phrases.greeting, citations: [] };
    // The question's own language first (its words match those docs), then the answer's, then
    // English. A hit in another language is swapped for the same section of the docs in the
    // answer's language when the translation lines up, so the answer still quotes its language.
    const questionLang = detectLanguage(question, answerLang);
    const searchOrder = [...new Set<ChatLanguage>([questionLang, answerLang, 'en'])];
    for (const lang of searchOrder) {
      const index = await library.index(lang);
      if (index.size === 0) continue;
      const { query, termCount } = buildQuery(messages, question, lang);
      if (termCount === 0) continue;
      const hits = index.search(query);
      if (lang !== answerLang) {
        const target = await library.index(answerLang);
        const mapped = hits.map((h) => ({ ...h, passage: target.counterpart(h.passage) }));
        if (target.size > 0 && mapped.length > 0 && mapped.every((h) => h.passage)) {
          const local = buildQuery(messages, question, answerLang).query;
          const composed = composeAnswer(question, mapped as Hit[], target, local, answerLang, termCount);
          if (composed.found) return composed;
          continue;
        }
      }
      const composed = composeAnswer(question, hits, index, query, answerLang, termCount);
      if (composed.found) return composed;
    }
    return { text: phrases.notFound, citations: [] };
  }

  return {
    kind: 'chat',
    async warm(languages = CHAT_LANGUAGES) {
      await Promise.all(languages.map((l) => library.index(l)));
    },
    async *complete(request: ChatRequest, ctx: GenerationContext): AsyncGenerator<ChatChunk> {
      ctx.signal.throwIfAborted();
      const started = performance.now();
      const { text, citations } = await answer(request);
      ctx.signal.throwIfAborted();
      const maxTokens = Math.max(1, Math.floor(Number(request.maxTokens) || BUILTIN_CHAT_MODEL.parameters.maxTokens.default));
      const promptTokens = (request.messages ?? []).reduce((n, m) => n + approxTokens(String(m.content ?? '')), 0);
      const chunks = chunkForStreaming(text);
      ctx.onProgress(0.05, Math.round(performance.now() - started));
      let completionTokens = 0;
      let finishReason: 'stop' | 'length' = 'stop';
      for (let i = 0; i < chunks.length; i++) {
        ctx.signal.throwIfAborted();
        const piece = chunks[i]!;
        const tokens = approxTokens(piece);
        if (completionTokens + tokens > maxTokens) {
          finishReason = 'length';
          break;
        }
        completionTokens += tokens;
        yield { type: 'delta', text: piece };
      }
      if (citations.length > 0) yield { type: 'citations', citations };
      ctx.onProgress(1, 0);
      yield { type: 'done', finishReason, usage: { promptTokens, completionTokens } };
    },
  };
}
