import { createRoute } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { ChatRequestBody, ChatStreamEvent } from '@atelier/api/schemas';
import { spendCredits } from '../domain/creditsLedger.ts';
import { DomainError } from '../domain/errors.ts';
import { requestLanguage } from '../http/errorCatalogue.ts';
import { createRouter, errorResponses, jsonBody, SESSION_SECURITY } from '../http/openapi.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

const chat = createRoute({
  method: 'post',
  path: '/chat',
  tags: ['chat'],
  security: SESSION_SECURITY,
  middleware: requireUser,
  summary: 'Ask the chat model; the answer streams as server-sent events',
  description: 'Events: `delta` ({ text }), `citations` ({ citations }), then `done` ({ finishReason, usage }); `error` ({ code }) if the engine fails midway.',
  request: { body: jsonBody(ChatRequestBody) },
  responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: ChatStreamEvent } } }, ...errorResponses(400, 401, 402, 403) },
});

/** The dashboard's chat: the engine behind `/v1/chat/completions`, with the session cookie. */
export function chatRoutes({ db, generation }: Services) {
  const app = createRouter();
  app.openapi(chat, async (c) => {
    const body = c.req.valid('json');
    const id = body.model ?? generation.models.defaultFor('chat')?.id;
    if (!id) throw new DomainError('UNKNOWN_MODEL', 400, 'no chat model is configured');
    const { descriptor, engine } = generation.models.require(id, 'chat');
    const user = signedInUser(c);
    if (descriptor.price > 0) await spendCredits(db, user.id, descriptor.price, 'chat');
    const language = requestLanguage({ cookie: c.req.header('cookie'), acceptLanguage: c.req.header('accept-language') });
    const controller = new AbortController();
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort());
      try {
        for await (const chunk of engine.complete({ model: descriptor.id, messages: body.messages, language }, { signal: controller.signal, onProgress: () => {} })) {
          if (stream.aborted) break;
          if (chunk.type === 'delta') await stream.writeSSE({ event: 'delta', data: JSON.stringify({ text: chunk.text }) });
          else if (chunk.type === 'citations') await stream.writeSSE({ event: 'citations', data: JSON.stringify({ citations: chunk.citations }) });
          else await stream.writeSSE({ event: 'done', data: JSON.stringify({ finishReason: chunk.finishReason, usage: chunk.usage }) });
        }
      } catch (err) {
        if (!controller.signal.aborted) console.error('chat failed:', err);
        await stream.writeSSE({ event: 'error', data: JSON.stringify({ code: 'SYSTEM_ERROR' }) });
      }
    }) as never;
  });
  return app;
}
