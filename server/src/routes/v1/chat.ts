/**
 * `/v1/chat/completions`, as OpenAI's, with `stream: true` as server-sent events
 * (`data: {chunk}` lines, then `data: [DONE]`). The built-in engine's citations come as an
 * Atelier extension: `citations` on the message, and on the last chunk.
 */
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { spendCredits } from '../../domain/creditsLedger.ts';
import { DomainError } from '../../domain/errors.ts';
import { randomToken } from '../../domain/secrets.ts';
import { requestLanguage } from '../../http/errorCatalogue.ts';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import type { ChatChunk, ChatMessage, Citation } from '../../engines/types.ts';
import type { Services } from '../../services.ts';
import { invalidRequest } from './errors.ts';

const Part = z.object({ type: z.string(), text: z.string().optional() });
const Message = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(Part), z.null()]).optional(),
});

const ChatBody = z.object({
  model: z.string().min(1).max(200),
  messages: z.array(Message).min(1).max(200),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_tokens: z.number().int().positive().nullable().optional(),
  max_completion_tokens: z.number().int().positive().nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  n: z.literal(1).nullable().optional(),
  user: z.string().optional(),
});

function toMessages(messages: z.infer<typeof Message>[]): ChatMessage[] {
  return messages
    .filter((m) => m.role !== 'tool')
    .map((m) => ({
      role: m.role === 'developer' ? 'system' : (m.role as ChatMessage['role']),
      content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''),
    }));
}

export function chatApi({ db, generation }: Services) {
  const app = new Hono<ApiKeyEnv>();

  app.post('/completions', async (c: Context<ApiKeyEnv>) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new DomainError('VALIDATION_FAILED', 400, 'the body must be JSON');
    }
    const parsed = ChatBody.safeParse(raw);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const b = parsed.data;
    const { descriptor, engine } = generation.models.require(b.model, 'chat');
    const userId = c.get('apiKey').userId;
    if (descriptor.price > 0) await spendCredits(db, userId, descriptor.price, 'chat');
    const maxTokens = b.max_completion_tokens ?? b.max_tokens;
    const request = {
      model: descriptor.id,
      messages: toMessages(b.messages),
      language: requestLanguage({ acceptLanguage: c.req.header('accept-language') }),
      ...(maxTokens ? { maxTokens } : {}),
      ...(typeof b.temperature === 'number' ? { temperature: b.temperature } : {}),
      ...(typeof b.seed === 'number' ? { seed: b.seed } : {}),
    };
    const controller = new AbortController();
    const chunks = engine.complete(request, { signal: controller.signal, onProgress: () => {} });
    const id = `chatcmpl-${randomToken(12)}`;
    const created = Math.floor(Date.now() / 1000);

    if (!b.stream) {
      let content = '';
      let citations: Citation[] = [];
      let done: Extract<ChatChunk, { type: 'done' }> | null = null;
      for await (const chunk of chunks) {
        if (chunk.type === 'delta') content += chunk.text;
        else if (chunk.type === 'citations') citations = citations.concat(chunk.citations);
        else done = chunk;
      }
      const usage = done?.usage ?? { promptTokens: 0, completionTokens: 0 };
      return c.json({
        id,
        object: 'chat.completion',
        created,
        model: descriptor.id,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, citations }, finish_reason: done?.finishReason ?? 'stop', logprobs: null }],
        usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
      });
    }

    const chunkOf = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ id, object: 'chat.completion.chunk', created, model: descriptor.id, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra });
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort());
      let first = true;
      let citations: Citation[] = [];
      try {
        for await (const chunk of chunks) {
          if (stream.aborted) break;
          if (chunk.type === 'delta') {
            await stream.writeSSE({ data: chunkOf(first ? { role: 'assistant', content: chunk.text } : { content: chunk.text }, null) });
            first = false;
          } else if (chunk.type === 'citations') citations = citations.concat(chunk.citations);
          else {
            await stream.writeSSE({ data: chunkOf(first ? { role: 'assistant' } : {}, chunk.finishReason, { citations }) });
            if (b.stream_options?.include_usage) {
              const u = chunk.usage;
              await stream.writeSSE({
                data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model: descriptor.id, choices: [], usage: { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens } }),
              });
            }
          }
        }
      } catch (err) {
        console.error('chat stream failed:', err);
        await stream.writeSSE({ data: JSON.stringify({ error: { message: 'System error', type: 'server_error', param: null, code: 'SYSTEM_ERROR' } }) });
      }
      await stream.writeSSE({ data: '[DONE]' });
    });
  });

  return app;
}
