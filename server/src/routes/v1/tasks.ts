/**
 * `/v1/videos` (OpenAI's videos API) and `/v1/music` (the same task shape): create, retrieve,
 * list, delete, download.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { isErrorCode } from '@atelier/api';
import { Visibility, VideoStyle } from '@atelier/api/schemas';
import type { TaskRow } from '../../db/schema.ts';
import { cacheMaxAgeMs, ReadThroughCache } from '../../domain/changes.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { cursorOf, getOwnTask, getTask, listOwnTasks, mediaOf } from '../../domain/tasks.ts';
import { errorMessage, requestLanguage } from '../../http/errorCatalogue.ts';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import type { Services } from '../../services.ts';
import { invalidRequest } from './errors.ts';

type Kind = 'video' | 'music';
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** OpenAI's four states: ours before processing are queued; cancelled is failed with TASK_CANCELLED. */
export function openAIStatus(status: TaskRow['status']): 'queued' | 'in_progress' | 'completed' | 'failed' {
  if (status === 'processing') return 'in_progress';
  if (status === 'completed') return 'completed';
  if (status === 'failed' || status === 'cancelled') return 'failed';
  return 'queued';
}

export function taskObject(c: Context, task: TaskRow) {
  const p = task.params;
  const code = task.errorCode && isErrorCode(task.errorCode) ? task.errorCode : null;
  return {
    id: task.id,
    object: task.kind,
    model: task.model,
    status: openAIStatus(task.status),
    progress: task.status === 'completed' ? 100 : Math.round(task.progress * 100),
    prompt: task.prompt,
    ...(task.kind === 'video' ? { style: p.style, size: `${p.width}x${p.height}`, remixed_from_video_id: null } : {}),
    seconds: String(p.durationSec),
    seed: p.seed,
    visibility: task.visibility,
    created_at: unix(task.createdAt),
    completed_at: task.status === 'completed' ? unix(task.finishedAt) : null,
    expires_at: null,
    error: code ? { code, message: errorMessage(code, requestLanguage({ acceptLanguage: c.req.header('accept-language') })) } : null,
  };
}

/**
 * The body of a status poll. Without an error (whose message is in the caller's language) it is
 * the same for every caller, so it is serialised once per row the cache holds.
 */
const bodies = new WeakMap<TaskRow, string>();
function taskJson(c: Context, task: TaskRow): string {
  if (task.errorCode) return JSON.stringify(taskObject(c, task));
  let body = bodies.get(task);
  if (body === undefined) bodies.set(task, (body = JSON.stringify(taskObject(c, task))));
  return body;
}

const Seconds = z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/).transform(Number)]);
const Int = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

const VideoCreate = z.object({
  model: z.string().min(1).max(200).optional(),
  prompt: z.string().max(4000).default(''),
  seconds: Seconds.optional(),
  size: z.string().regex(/^\d+x\d+$/, 'Must be WIDTHxHEIGHT, e.g. 1280x720').optional(),
  style: z.string().trim().toLowerCase().pipe(VideoStyle).optional(),
  fps: Int.optional(),
  seed: Int.optional(),
  visibility: Visibility.optional(),
  input_reference: z.unknown().optional(),
});

const MusicCreate = z.object({
  model: z.string().min(1).max(200).optional(),
  prompt: z.string().trim().min(1).max(4000),
  seconds: Seconds.optional(),
  seed: Int.optional(),
  visibility: Visibility.optional(),
});

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.uuid().optional(),
});

/** JSON or multipart/form-data (the SDK sends videos.create as a form). */
async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) return (await c.req.parseBody()) as Record<string, unknown>;
  try {
    const body = (await c.req.json()) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new DomainError('VALIDATION_FAILED', 400, 'the body must be a JSON object', [{ path: '', message: 'Expected a JSON object' }]);
}

export function taskApi(services: Services, kind: Kind) {
  const { db, generation } = services;
  const app = new Hono<ApiKeyEnv>();
  // Status polls read task rows from a cache that every write to a task clears before it returns
  // (domain/changes.ts), so a poll never answers with a state the task has already left.
  const rows = new ReadThroughCache<TaskRow>(db, { maxAgeMs: cacheMaxAgeMs(services.config), stale: (change) => (change.kind === 'task' ? change.id : null) });
  const user = (c: Context<ApiKeyEnv>) => c.get('apiKey').userId;
  const own = async (c: Context<ApiKeyEnv>) => {
    const task = await getOwnTask(db, user(c), c.req.param('id')!);
    if (task.kind !== kind) throw notFound(kind);
    return task;
  };
  const modelOr = (model: string | undefined) => {
    const id = model ?? generation.models.defaultFor(kind)?.id;
    if (!id) throw new DomainError('UNKNOWN_MODEL', 400, `no ${kind} model is configured`);
    return id;
  };

  app.post('/', async (c) => {
    const raw = await readBody(c);
    const idempotencyKey = c.req.header('idempotency-key') ?? null;
    let result;
    if (kind === 'video') {
      const parsed = VideoCreate.safeParse(raw);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const b = parsed.data;
      if (b.input_reference !== undefined) throw new DomainError('VALIDATION_FAILED', 400, 'input_reference is not supported', [{ path: 'input_reference', message: 'Not supported' }]);
      const [width, height] = b.size ? b.size.split('x').map(Number) : [undefined, undefined];
      result = await generation.submit({
        kind: 'video',
        userId: user(c),
        source: 'api',
        idempotencyKey,
        model: modelOr(b.model),
        prompt: b.prompt,
        visibility: b.visibility,
        input: { style: b.style, durationSec: b.seconds, width, height, fps: b.fps, seed: b.seed },
      });
    } else {
      const parsed = MusicCreate.safeParse(raw);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const b = parsed.data;
      result = await generation.submit({
        kind: 'music',
        userId: user(c),
        source: 'api',
        idempotencyKey,
        model: modelOr(b.model),
        prompt: b.prompt,
        visibility: b.visibility,
        input: { durationSec: b.seconds, seed: b.seed },
      });
    }
    return c.json(taskObject(c, result.task), 200);
  });

  app.get('/', async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) throw invalidRequest(parsed.error);
    const q = parsed.data;
    const cursor = q.after ? await cursorOf(db, user(c), q.after) : undefined;
    const page = await listOwnTasks(db, user(c), kind, { limit: q.limit, cursor, order: q.order });
    const data = page.tasks.map((t) => taskObject(c, t));
    return c.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.nextCursor !== null }, 200);
  });

  app.get('/:id{[0-9a-f-]{36}}', async (c) => {
    const id = c.req.param('id');
    const task = await rows.get(id, () => getTask(db, id));
    if (!task || task.userId !== user(c)) throw notFound('task');
    if (task.kind !== kind) throw notFound(kind);
    return c.body(taskJson(c, task), 200, { 'content-type': 'application/json' });
  });

  app.delete('/:id{[0-9a-f-]{36}}', async (c) => {
    const task = await own(c);
    await generation.remove(user(c), task.id);
    return c.json({ id: task.id, object: `${kind}.deleted`, deleted: true }, 200);
  });

  app.get('/:id{[0-9a-f-]{36}}/content', async (c) => {
    const task = await own(c);
    const variant = c.req.query('variant');
    if (variant && variant !== kind) throw new DomainError('NOT_FOUND', 404, `no ${variant} for this ${kind}`);
    if (task.status !== 'completed') throw new DomainError('TASK_NOT_READY', 409, `the ${kind} is ${task.status}`);
    const [file] = (await mediaOf(db, [task.id])).get(task.id) ?? [];
    const stream = file ? await generation.storage.read(file.storageKey) : null;
    if (!file || !stream) throw notFound('file');
    return c.body(stream, 200, {
      'content-type': file.contentType,
      'content-length': String(file.byteSize),
      'content-disposition': `attachment; filename="${task.id}.${file.storageKey.split('.').pop()}"`,
    });
  });

  // A well-formed path with an id that is not a task id.
  app.all('/:id/*', () => {
    throw notFound(kind);
  });
  app.all('/:id', () => {
    throw notFound(kind);
  });
  return app;
}
