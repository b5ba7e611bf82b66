/**
 * `/v1/images/generations` and `/v1/images/edits`, as OpenAI's: the request waits for the
 * pictures. Each is still a task (paid, refunded on failure, in the dashboard's gallery).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { isErrorCode } from '@atelier/api';
import { Visibility } from '@atelier/api/schemas';
import type { TaskRow } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { mediaOf } from '../../domain/tasks.ts';
import { signedMediaQuery } from '../../domain/tasksMedia.ts';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import { readAll } from '../../storage/index.ts';
import type { Services } from '../../services.ts';
import { pictureUpload } from '../tasks.ts';
import { invalidRequest } from './errors.ts';

/** How long a `url` answer's link works, as OpenAI's do. */
const LINK_TTL_MS = 60 * 60_000;

const Int = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
const Size = z.union([z.literal('auto'), z.string().regex(/^\d+x\d+$/, 'Must be WIDTHxHEIGHT, e.g. 1024x1024')]);
const Common = {
  model: z.string().min(1).max(200).optional(),
  prompt: z.string().trim().min(1).max(4000),
  n: Int.pipe(z.number().int().min(1).max(4)).optional(),
  size: Size.optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  seed: Int.optional(),
  negative_prompt: z.string().max(2000).optional(),
  visibility: Visibility.optional(),
  // Accepted for compatibility; the model decides these.
  quality: z.string().optional(),
  style: z.string().optional(),
  user: z.string().optional(),
  background: z.string().optional(),
  output_format: z.string().optional(),
  moderation: z.string().optional(),
};
const Generate = z.object(Common);
const Edit = z.object({ ...Common, strength: z.union([z.number(), z.string().regex(/^\d*\.?\d+$/).transform(Number)]).pipe(z.number().min(0).max(1)).optional() });

function sizeOf(size: string | undefined): { width?: number; height?: number } {
  if (!size || size === 'auto') return {};
  const [width, height] = size.split('x').map(Number);
  return { width: width!, height: height! };
}

export function imageApi(services: Services) {
  const { db, generation, config } = services;
  const app = new Hono<ApiKeyEnv>();

  const modelOr = (model: string | undefined) => {
    const id = model ?? generation.models.defaultFor('image')?.id;
    if (!id) throw new DomainError('UNKNOWN_MODEL', 400, 'no image model is configured');
    return id;
  };

  /** Waits for the task and answers with its pictures, or with its error. */
  async function answer(c: Context<ApiKeyEnv>, submitted: TaskRow, format: 'url' | 'b64_json') {
    const model = generation.models.find(submitted.model)?.descriptor;
    const task = await generation.waitForEnd(submitted.userId, submitted.id, (config.generation.timeoutMs ?? model?.timeoutMs ?? 120_000) + 30_000);
    if (task.status !== 'completed') {
      const code = task.errorCode && isErrorCode(task.errorCode) ? task.errorCode : 'IMAGE_GENERATE_FAILED';
      if (task.status === 'failed' || task.status === 'cancelled') {
        throw new DomainError(code, code === 'VALIDATION_FAILED' ? 400 : code === 'ENGINE_UNAVAILABLE' ? 503 : 500, task.errorMessage ?? undefined);
      }
      throw new DomainError('QUERY_STATUS_TIMEOUT', 504);
    }
    const files = (await mediaOf(db, [task.id])).get(task.id) ?? [];
    const origin = config.siteUrlConfigured ? config.publicConfig.siteUrl : new URL(c.req.url).origin;
    const expiresAt = new Date(Date.now() + LINK_TTL_MS);
    const data = await Promise.all(
      files.map(async (f) => {
        if (format === 'url') return { url: `${origin}/api/media/${f.id}?${await signedMediaQuery(db, f.id, expiresAt)}` };
        const bytes = await readAll(generation.storage, f.storageKey);
        return { b64_json: Buffer.from(bytes ?? new Uint8Array()).toString('base64') };
      }),
    );
    const first = files[0];
    return c.json({
      created: Math.floor(task.createdAt.getTime() / 1000),
      data,
      ...(first ? { size: `${first.width}x${first.height}`, output_format: first.contentType.split('/')[1] } : {}),
      // Atelier extensions: the task behind the answer, and what it cost.
      id: task.id,
      cost: task.cost,
    });
  }

  app.post('/generations', async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new DomainError('VALIDATION_FAILED', 400, 'the body must be JSON');
    }
    const parsed = Generate.safeParse(raw);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const b = parsed.data;
    const { task } = await generation.submit({
      kind: 'image',
      userId: c.get('apiKey').userId,
      source: 'api',
      idempotencyKey: c.req.header('idempotency-key') ?? null,
      model: modelOr(b.model),
      prompt: b.prompt,
      visibility: b.visibility,
      input: { ...sizeOf(b.size), n: b.n, seed: b.seed, negativePrompt: b.negative_prompt },
    });
    return answer(c, task, b.response_format ?? 'url');
  });

  app.post('/edits', async (c) => {
    if (!(c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
      throw new DomainError('VALIDATION_FAILED', 400, 'send multipart/form-data with the picture in `image`', [{ path: 'image', message: 'Required' }]);
    }
    const form = await c.req.parseBody({ all: true });
    const { image, 'image[]': images, mask, ...fields } = form as Record<string, unknown>;
    if (mask !== undefined) throw new DomainError('VALIDATION_FAILED', 400, 'mask is not supported', [{ path: 'mask', message: 'Not supported' }]);
    const pictures = [image, images].flat().filter((v) => v !== undefined);
    if (pictures.length > 1) throw new DomainError('VALIDATION_FAILED', 400, 'one picture at a time', [{ path: 'image', message: 'Only one picture is supported' }]);
    const parsed = Edit.safeParse(fields);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const b = parsed.data;
    const { task } = await generation.submit({
      kind: 'image',
      userId: c.get('apiKey').userId,
      source: 'api',
      idempotencyKey: c.req.header('idempotency-key') ?? null,
      model: modelOr(b.model),
      prompt: b.prompt,
      visibility: b.visibility,
      input: { ...sizeOf(b.size), n: b.n, seed: b.seed, negativePrompt: b.negative_prompt, strength: b.strength },
      image: await pictureUpload(pictures[0]),
    });
    return answer(c, task, b.response_format ?? 'url');
  });

  return app;
}
