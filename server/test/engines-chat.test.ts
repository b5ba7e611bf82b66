import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_CHAT_MODEL, createBuiltinChatEngine, DEFAULT_CONTENT_DIR, parseDoc, slugifyHeading } from '../src/engines/chat/builtin/index.ts';
import { chunkForStreaming, PHRASES } from '../src/engines/chat/builtin/answer.ts';
import { detectLanguage, tokenize } from '../src/engines/chat/builtin/tokenize.ts';
import type { ChatChunk, ChatMessage, ChatRequest, Citation } from '../src/engines/types.ts';

const CONTENT = join(import.meta.dirname, '..', 'content');
const engine = createBuiltinChatEngine({ contentDir: CONTENT });

async function ask(question: string | ChatMessage[], extra: Partial<ChatRequest> = {}, signal = new AbortController().signal) {
  const messages: ChatMessage[] = typeof question === 'string' ? [{ role: 'user', content: question }] : question;
  const chunks: ChatChunk[] = [];
  for await (const c of engine.complete({ model: BUILTIN_CHAT_MODEL.id, messages, ...extra }, { signal, onProgress: () => {} })) chunks.push(c);
  const deltas = chunks.filter((c): c is Extract<ChatChunk, { type: 'delta' }> => c.type === 'delta');
  const citations = chunks.find((c): c is Extract<ChatChunk, { type: 'citations' }> => c.type === 'citations')?.citations ?? [];
  const done = chunks[chunks.length - 1];
  return { chunks, deltas, text: deltas.map((d) => d.text).join(''), citations, done };
}

/** A citation's path must be a real document and its anchor one of that document's headings. */
function assertCitationExists(c: Citation): void {
  const match = /^(?:\/(zh|ru|de|fr|ja|ko|es|pt|tr))?\/(docs|blog|legal)\/([a-z0-9-]+)(?:#(.+))?$/.exec(c.url);
  expect(match, c.url).not.toBeNull();
  const [, lang = 'en', section, slug, anchor] = match!;
  const file = join(CONTENT, section!, slug!, `${lang}.md`);
  expect(existsSync(file), file).toBe(true);
  const doc = parseDoc(readFileSync(file, 'utf8'));
  if (anchor) expect(doc.sections.map((s) => s.anchor)).toContain(anchor);
  expect(c.title.length).toBeGreaterThan(0);
  if (doc.meta.title) expect(c.title.startsWith(doc.meta.title)).toBe(true);
}

describe('built-in chat engine', () => {
  it('describes itself honestly and finds the repository docs by default', () => {
    expect(BUILTIN_CHAT_MODEL).toMatchObject({ id: 'atelier-docs-chat-1', kind: 'chat', engine: 'builtin' });
    expect(BUILTIN_CHAT_MODEL.description).toMatch(/not a language model/);
    expect(existsSync(join(DEFAULT_CONTENT_DIR, 'docs', 'getting-started', 'en.md'))).toBe(true);
  });

  it('answers how to create an API key from the docs, streamed, with citations, then done', async () => {
    const { chunks, deltas, text, citations, done } = await ask('How do I create an API key?', { language: 'en' });
    expect(deltas.length).toBeGreaterThan(20);
    // Stream order: every delta, then the citations, then done.
    const kinds = chunks.map((c) => c.type);
    expect(kinds.indexOf('citations')).toBe(deltas.length);
    expect(kinds[kinds.length - 1]).toBe('done');
    expect(text).toMatch(/API key/);
    expect(text).toMatch(/Copy the key immediately/);
    expect(text).toMatch(/\[1\]/);
    expect(citations.length).toBeGreaterThan(0);
    expect(citations.some((c) => c.url.startsWith('/docs/getting-started#') || c.url.startsWith('/docs/api#'))).toBe(true);
    expect(citations[0]).toEqual({ url: '/docs/getting-started#8-create-an-api-key', title: 'Getting started › 8. Create an API key' });
    citations.forEach(assertCitationExists);
    expect(done).toMatchObject({ type: 'done', finishReason: 'stop' });
    if (done?.type === 'done') {
      expect(done.usage.promptTokens).toBeGreaterThan(0);
      expect(done.usage.completionTokens).toBeGreaterThan(20);
    }
    // Deltas are words or short phrases.
    for (const d of deltas) expect(d.text.trim().split(/\s+/).length).toBeLessThanOrEqual(2);
  });

  it('answers in Japanese from the Japanese docs', async () => {
    const { text, citations, deltas } = await ask('API キーはどうやって作成しますか？', { language: 'ja' });
    expect(deltas.length).toBeGreaterThan(5);
    expect(text).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}]/u);
    expect(text).toContain('キー');
    expect(text).toMatch(/ドキュメント/);
    expect(citations.length).toBeGreaterThan(0);
    for (const c of citations) expect(c.url.startsWith('/ja/')).toBe(true);
    expect(citations[0]!.url).toBe('/ja/docs/getting-started#8-api-キーを作成する');
    citations.forEach(assertCitationExists);
  });

  it('answers in the requested language even when asked in another one', async () => {
    const { text, citations } = await ask('How do I create an API key?', { language: 'ja' });
    expect(text).toMatch(/ドキュメント/);
    expect(citations[0]?.url).toBe('/ja/docs/getting-started#8-api-キーを作成する');
  });

  it.each([
    ['de', 'Wie erstelle ich einen API-Schlüssel?', '/de/docs/getting-started#8-api-schlüssel-erstellen'],
    ['zh', '如何创建 API 密钥？', '/zh/docs/getting-started#8-创建-api-密钥'],
    ['ko', 'API 키는 어떻게 만드나요?', '/ko/docs/getting-started#8-api-키-만들기'],
    ['ru', 'Как работают вебхуки?', '/ru/docs/api#вебхуки'],
    ['fr', 'Comment demander un remboursement ?', '/fr/legal/refund'],
  ])('answers in %s', async (language, question, firstUrlPrefix) => {
    const { citations } = await ask(question, { language });
    expect(citations.length).toBeGreaterThan(0);
    expect(citations.some((c) => c.url.startsWith(firstUrlPrefix))).toBe(true);
    citations.forEach(assertCitationExists);
  });

  it.each([
    ['en', 'What is the capital of France?'],
    ['en', 'Write me a poem about cats'],
    ['en', 'how to fix my car engine'],
    ['de', 'Wie wird das Wetter morgen?'],
    ['ja', '日本の首都はどこですか？'],
    ['zh', '推荐一部好看的电影'],
  ])('says it does not know, in %s, when the docs have nothing: %s', async (language, question) => {
    const { text, citations, done } = await ask(question, { language });
    expect(citations).toEqual([]);
    expect(text).toBe(PHRASES[language as keyof typeof PHRASES].notFound);
    expect(done).toMatchObject({ type: 'done', finishReason: 'stop' });
  });

  it('cites only documents and headings that exist', async () => {
    const questions: [string, string][] = [
      ['What happens if a task fails?', 'en'],
      ['How do I verify webhook signatures?', 'en'],
      ['What are the rate limits?', 'en'],
      ['Is the built-in engine a neural network?', 'en'],
      ['What does Unknown model mean?', 'en'],
      ['Do you use cookies?', 'en'],
      ['Como funcionam os webhooks?', 'pt'],
      ['¿Cuánto cuesta un vídeo?', 'es'],
      ['Kredilerim neden iade edildi?', 'tr'],
    ];
    let cited = 0;
    for (const [q, language] of questions) {
      const { citations } = await ask(q, { language });
      citations.forEach(assertCitationExists);
      cited += citations.length;
    }
    expect(cited).toBeGreaterThan(questions.length);
  });

  it('uses the previous question for a short follow-up', async () => {
    const { citations } = await ask([
      { role: 'user', content: 'How do I verify webhook signatures?' },
      { role: 'assistant', content: '…' },
      { role: 'user', content: 'and retries?' },
    ]);
    expect(citations.some((c) => c.url.startsWith('/docs/api#'))).toBe(true);
  });

  it('stops at maxTokens with finishReason length', async () => {
    const { done } = await ask('How do I create an API key?', { language: 'en', maxTokens: 20 });
    expect(done).toMatchObject({ type: 'done', finishReason: 'length' });
    if (done?.type === 'done') expect(done.usage.completionTokens).toBeLessThanOrEqual(20);
  });

  it('greets, and invites a question when there is none', async () => {
    expect((await ask('Hello!')).text).toBe(PHRASES.en.greeting);
    expect((await ask('こんにちは', { language: 'ja' })).text).toBe(PHRASES.ja.greeting);
    expect((await ask([{ role: 'system', content: 'Be brief.' }], { language: 'fr' })).text).toBe(PHRASES.fr.empty);
  });

  it('honours the abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(ask('How do I create an API key?', {}, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    // Aborting mid-stream stops it.
    const mid = new AbortController();
    const seen: ChatChunk[] = [];
    const run = (async () => {
      for await (const c of engine.complete({ model: 'm', messages: [{ role: 'user', content: 'How do I create an API key?' }] }, { signal: mid.signal, onProgress: () => {} })) {
        seen.push(c);
        if (seen.length === 3) mid.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.length).toBe(3);
  });
});

describe('built-in chat engine: its own content folder', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-chat-'));
    mkdirSync(join(dir, 'docs', 'faq'), { recursive: true });
    writeFileSync(
      join(dir, 'docs', 'faq', 'en.md'),
      '---\ntitle: "FAQ"\ndescription: "Questions."\n---\n\n# FAQ\n\n## Teapots\n\nThe studio teapot brews oolong at 90 degrees.\n\n```bash\n# Teapots are not code\n```\n\n## Teapots\n\nA second teapot section.\n',
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes whatever Markdown it is given, with unique anchors, and notices changes', async () => {
    const local = createBuiltinChatEngine({ contentDir: dir, recheckMs: 0 });
    const collect = async (q: string) => {
      let text = '';
      let citations: Citation[] = [];
      for await (const c of local.complete({ model: 'm', messages: [{ role: 'user', content: q }], language: 'en' }, { signal: new AbortController().signal, onProgress: () => {} })) {
        if (c.type === 'delta') text += c.text;
        if (c.type === 'citations') citations = c.citations;
      }
      return { text, citations };
    };
    const first = await collect('At what temperature does the teapot brew oolong?');
    expect(first.text).toContain('90 degrees');
    expect(first.citations[0]).toEqual({ url: '/docs/faq#teapots', title: 'FAQ › Teapots' });
    writeFileSync(join(dir, 'docs', 'faq', 'en.md'), '---\ntitle: "FAQ"\n---\n\n# FAQ\n\n## Kettles\n\nThe kettle boils water for green tea.\n');
    const second = await collect('What does the kettle boil?');
    expect(second.text).toContain('boils water');
    expect(second.citations[0]?.url).toBe('/docs/faq#kettles');
  });
});

describe('docs assistant building blocks', () => {
  it('slugifies headings like GitHub, in every script', () => {
    expect(slugifyHeading('8. Create an API key')).toBe('8-create-an-api-key');
    expect(slugifyHeading('Models: `GET /v1/models`')).toBe('models-get-v1models');
    expect(slugifyHeading('8. API キーを作成する')).toBe('8-api-キーを作成する');
    expect(slugifyHeading('Webhooks')).toBe('webhooks');
  });

  it('tokenises by language: words, stems, CJK bigrams', () => {
    expect(tokenize('How do I create API keys?', 'en')).toEqual(['creat', 'api', 'key']);
    expect(tokenize('APIキーを作成する', 'ja')).toEqual(['api', 'キー', '作成']);
    expect(tokenize('如何创建密钥', 'zh')).toEqual(['创建', '建密', '密钥']);
    expect(tokenize('API 키는 어떻게 만드나요?', 'ko')).toEqual(['api', '키', '만드']);
    expect(detectLanguage('Wie erstelle ich einen Schlüssel?')).toBe('de');
    expect(detectLanguage('Comment créer une clé ?')).toBe('fr');
    expect(detectLanguage('APIキーの作り方')).toBe('ja');
    expect(detectLanguage('API 키')).toBe('ko');
    expect(detectLanguage('如何创建')).toBe('zh');
  });

  it('streams every character of the answer', () => {
    const text = 'Here is **one** answer.\n\n1. Open [API keys](/dashboard/api).\nAPI キーを作成します。とても簡単です。  ';
    const chunks = chunkForStreaming(text);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThan(8);
  });
});
