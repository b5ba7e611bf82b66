import { z } from 'zod';

export const ChatRole = z.enum(['system', 'user', 'assistant']).meta({ id: 'ChatRole' });

export const ChatRequestBody = z
  .object({
    /** A chat model from `/api/models`; the first one when left out. */
    model: z.string().min(1).max(200).optional(),
    messages: z
      .array(z.object({ role: ChatRole, content: z.string().max(8000) }))
      .min(1)
      .max(100),
  })
  .meta({ id: 'ChatRequestBody' });
export type ChatRequestBody = z.infer<typeof ChatRequestBody>;

export const ChatCitation = z.object({ url: z.string(), title: z.string() }).meta({ id: 'ChatCitation' });
export type ChatCitation = z.infer<typeof ChatCitation>;

/**
 * The `data` of one server-sent event of `POST /api/chat`: event `delta` carries text, `citations`
 * the sources, `done` the end (and `error` a catalogue code if the engine failed midway).
 */
export const ChatStreamEvent = z
  .union([
    z.object({ text: z.string() }),
    z.object({ citations: z.array(ChatCitation) }),
    z.object({ finishReason: z.enum(['stop', 'length']), usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }) }),
    z.object({ code: z.string() }),
  ])
  .meta({ id: 'ChatStreamEvent' });
export type ChatStreamEvent = z.infer<typeof ChatStreamEvent>;
