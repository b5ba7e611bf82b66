import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isErrorCode } from '@atelier/api';
import {
  ExploreQuery,
  IdParams,
  ImageEditFields,
  ImageTaskBody,
  MusicTaskBody,
  ShareLink,
  Task,
  TaskEvent,
  TaskListQuery,
  TaskPage,
  UpdateTaskBody,
  VideoTaskBody,
} from '@atelier/api/schemas';
import type { MediaRow, TaskRow } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { getOwnTask, getSharedTask, listOwnTasks, listPublicTasks, mediaOf, setTaskVisibility, shareTask, unshareTask } from '../domain/tasks.ts';
import type { AppEnv } from '../http/appEnv.ts';
import { createRouter, errorResponses, jsonBody, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Upload } from '../jobs/generation.ts';
import type { Services } from '../services.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A task as the dashboard sees it; `share` puts the share token on file links (the shared view). */
export function taskBody(task: TaskRow, files: MediaRow[], view: { owner: boolean; share?: string; siteUrl: string }): Task {
  const query = view.share ? `?share=${encodeURIComponent(view.share)}` : '';
  return {
    id: task.id,
    kind: task.kind,
    mode: task.mode as Task['mode'],
    model: task.model,
    prompt: task.prompt,
    params: task.params,
    cost: view.owner ? task.cost : 0,
    status: task.status,
    progress: Math.round(task.progress * 100),
    etaMs: task.status === 'processing' ? task.etaMs : null,
    errorCode: task.errorCode && isErrorCode(task.errorCode) ? task.errorCode : null,
    visibility: task.visibility,
    outputs: files.map((f) => ({
      id: f.id,
      url: `/api/media/${f.id}${query}`,
      contentType: f.contentType,
      byteSize: f.byteSize,
      width: f.width,
      height: f.height,
      durationMs: f.durationMs,
    })),
    shareUrl: view.owner && task.shareToken ? shareUrlOf(view.siteUrl, task.shareToken) : null,
    createdAt: task.createdAt.toISOString(),
    startedAt: iso(task.startedAt),
    finishedAt: iso(task.finishedAt),
  };
}

/** The page a share link opens; its data comes from `GET /api/shared/{token}`. */
export const shareUrlOf = (siteUrl: string, token: string) => `${siteUrl}/shared/${token}`;

const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(200).optional().meta({ description: 'A repeat with the same key returns the first task and charges nothing.' }),
});

const common = { tags: ['tasks'], security: SESSION_SECURITY, middleware: requireUser };
const submitResponses = {
  201: jsonContent(Task, 'The task, paid for and queued'),
  200: jsonContent(Task, 'The task an earlier request with the same Idempotency-Key created'),
  ...errorResponses(400, 401, 402, 403, 413, 422),
};

const submitImage = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/images',
  summary: 'Generate pictures from a prompt (text-to-image)',
  description: 'Spends the model price per picture at once; unknown models answer UNKNOWN_MODEL, too few credits INSUFFICIENT_BALANCE.',
  request: { headers: IdempotencyHeaders, body: jsonBody(ImageTaskBody) },
  responses: submitResponses,
});

const EditForm = ImageEditFields.extend({ image: z.any().openapi({ type: 'string', format: 'binary', description: 'PNG, JPEG or WebP' }) }).meta({ id: 'ImageEditForm' });

const submitImageEdit = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/images/edits',
  summary: 'Transform an uploaded picture (image-to-image)',
  description: 'multipart/form-data: the picture in `image`, the other fields as text. `strength` 0 keeps the picture, 1 replaces it.',
  request: { headers: IdempotencyHeaders, body: { required: true, content: { 'multipart/form-data': { schema: EditForm } } } },
  responses: submitResponses,
});

const submitVideo = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/videos',
  summary: 'Generate a video',
  description: 'An empty prompt answers VIDEO_PROMPT_REQUIRED.',
  request: { headers: IdempotencyHeaders, body: jsonBody(VideoTaskBody) },
  responses: submitResponses,
});

const submitMusic = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/music',
  summary: 'Generate a music track',
  request: { headers: IdempotencyHeaders, body: jsonBody(MusicTaskBody) },
  responses: submitResponses,
});

const list = createRoute({
  ...common,
  method: 'get',
  path: '/tasks',
  summary: 'Your images, videos or music, newest first',
  request: { query: TaskListQuery },
  responses: { 200: jsonContent(TaskPage, 'One page'), ...errorResponses(400, 401) },
});

const events = createRoute({
  ...common,
  method: 'get',
  path: '/tasks/events',
  summary: 'Status changes of your tasks, as server-sent events',
  description: 'Each change is an event `task` whose data is a TaskEvent; a comment line every 15 s keeps the stream open.',
  responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: TaskEvent } } }, ...errorResponses(401) },
});

const get = createRoute({
  ...common,
  method: 'get',
  path: '/tasks/{id}',
  summary: 'One of your tasks, with its status, progress and files',
  request: { params: IdParams },
  responses: { 200: jsonContent(Task, 'The task'), ...errorResponses(400, 401, 404) },
});

const update = createRoute({
  ...common,
  method: 'patch',
  path: '/tasks/{id}',
  summary: 'Make a task public or private',
  request: { params: IdParams, body: jsonBody(UpdateTaskBody) },
  responses: { 200: jsonContent(Task, 'The task'), ...errorResponses(400, 401, 403, 404) },
});

const remove = createRoute({
  ...common,
  method: 'delete',
  path: '/tasks/{id}',
  summary: 'Delete a task and its files',
  description: 'A task still running is cancelled (and refunded) first.',
  request: { params: IdParams },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404) },
});

const cancel = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/{id}/cancel',
  summary: 'Cancel a task that has not finished; its credits come back',
  request: { params: IdParams },
  responses: { 200: jsonContent(Task, 'The cancelled task'), ...errorResponses(400, 401, 403, 404, 409) },
});

const share = createRoute({
  ...common,
  method: 'post',
  path: '/tasks/{id}/share',
  summary: 'Make (or show again) the share link of a task',
  description: 'Whoever has the link sees the task and its files, even while it is private.',
  request: { params: IdParams },
  responses: { 200: jsonContent(ShareLink, 'The link'), ...errorResponses(400, 401, 403, 404) },
});

const unshare = createRoute({
  ...common,
  method: 'delete',
  path: '/tasks/{id}/share',
  summary: 'Turn the share link off',
  request: { params: IdParams },
  responses: { 204: { description: 'The old link no longer works' }, ...errorResponses(400, 401, 403, 404) },
});

const explore = createRoute({
  method: 'get',
  path: '/explore',
  tags: ['tasks'],
  summary: 'Everyone’s public work, newest first',
  request: { query: ExploreQuery },
  responses: { 200: jsonContent(TaskPage, 'One page'), ...errorResponses(400) },
});

const shared = createRoute({
  method: 'get',
  path: '/shared/{token}',
  tags: ['tasks'],
  summary: 'The task behind a share link',
  request: { params: z.object({ token: z.string().min(16).max(100) }) },
  responses: { 200: jsonContent(Task, 'The task; its file links carry the token'), ...errorResponses(400, 404) },
});

const PICTURE_TYPES: [string, string, number[]][] = [
  ['image/png', 'png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', 'jpg', [0xff, 0xd8, 0xff]],
  ['image/webp', 'webp', [0x52, 0x49, 0x46, 0x46]],
];

/** The uploaded picture, recognised by its first bytes rather than the name the browser sent. */
export async function pictureUpload(file: unknown, field = 'image'): Promise<Upload> {
  if (!(file instanceof Blob) || file.size === 0) throw new DomainError('VALIDATION_FAILED', 400, 'a picture is required', [{ path: field, message: 'Required' }]);
  const data = new Uint8Array(await file.arrayBuffer());
  const type = PICTURE_TYPES.find(([, , magic]) => magic.every((b, i) => data[i] === b));
  if (!type || (type[1] === 'webp' && String.fromCharCode(...data.slice(8, 12)) !== 'WEBP')) {
    throw new DomainError('VALIDATION_FAILED', 400, 'not a PNG, JPEG or WebP picture', [{ path: field, message: 'Must be a PNG, JPEG or WebP picture' }]);
  }
  return { data, contentType: type[0], extension: type[1] };
}

export function taskRoutes(services: Services) {
  const { db, generation } = services;
  const siteUrl = services.config.publicConfig.siteUrl;
  const app = createRouter();

  const one = async (task: TaskRow, owner = true, shareToken?: string) =>
    taskBody(task, (await mediaOf(db, [task.id])).get(task.id) ?? [], { owner, siteUrl, ...(shareToken ? { share: shareToken } : {}) });
  const many = async (tasks: TaskRow[], owner: boolean) => {
    const files = await mediaOf(db, tasks.map((t) => t.id));
    return tasks.map((t) => taskBody(t, files.get(t.id) ?? [], { owner, siteUrl }));
  };
  const submitted = async (c: Context<AppEnv>, result: { task: TaskRow; replayed: boolean }) => c.json(await one(result.task), result.replayed ? 200 : 201);
  const key = (c: Context<AppEnv>) => c.req.header('idempotency-key') ?? null;

  app.openapi(submitImage, async (c) => {
    const b = c.req.valid('json');
    const result = await generation.submit({
      kind: 'image',
      userId: signedInUser(c).id,
      source: 'dashboard',
      idempotencyKey: key(c),
      model: b.model,
      prompt: b.prompt,
      visibility: b.visibility,
      input: { negativePrompt: b.negativePrompt, width: b.width, height: b.height, n: b.n, seed: b.seed },
    });
    return submitted(c, result) as never;
  });

  app.openapi(submitImageEdit, async (c) => {
    const { image, ...b } = c.req.valid('form');
    const result = await generation.submit({
      kind: 'image',
      userId: signedInUser(c).id,
      source: 'dashboard',
      idempotencyKey: key(c),
      model: b.model,
      prompt: b.prompt,
      visibility: b.visibility,
      input: { negativePrompt: b.negativePrompt, width: b.width, height: b.height, n: b.n, seed: b.seed, strength: b.strength },
      image: await pictureUpload(image),
    });
    return submitted(c, result) as never;
  });

  app.openapi(submitVideo, async (c) => {
    const b = c.req.valid('json');
    const result = await generation.submit({
      kind: 'video',
      userId: signedInUser(c).id,
      source: 'dashboard',
      idempotencyKey: key(c),
      model: b.model,
      prompt: b.prompt,
      visibility: b.visibility,
      input: { style: b.style, durationSec: b.durationSec, width: b.width, height: b.height, fps: b.fps, seed: b.seed },
    });
    return submitted(c, result) as never;
  });

  app.openapi(submitMusic, async (c) => {
    const b = c.req.valid('json');
    const result = await generation.submit({
      kind: 'music',
      userId: signedInUser(c).id,
      source: 'dashboard',
      idempotencyKey: key(c),
      model: b.model,
      prompt: b.prompt,
      visibility: b.visibility,
      input: { durationSec: b.durationSec, seed: b.seed },
    });
    return submitted(c, result) as never;
  });

  app.openapi(list, async (c) => {
    const q = c.req.valid('query');
    const page = await listOwnTasks(db, signedInUser(c).id, q.kind, { limit: q.limit, cursor: q.cursor });
    return c.json({ tasks: await many(page.tasks, true), nextCursor: page.nextCursor }, 200);
  });

  app.openapi(events, (c) => {
    const user = signedInUser(c);
    return streamSSE(c, async (stream) => {
      const queue: string[] = [];
      let wake: (() => void) | null = null;
      const off = generation.events.subscribe(user.id, (event) => {
        queue.push(JSON.stringify(event));
        wake?.();
      });
      const ping = setInterval(() => {
        queue.push('');
        wake?.();
      }, 15_000);
      stream.onAbort(() => {
        off();
        clearInterval(ping);
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 3000 });
        while (!stream.aborted) {
          if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          for (const data of queue.splice(0)) {
            if (data === '') await stream.write(': keep-alive\n\n');
            else await stream.writeSSE({ event: 'task', data });
          }
        }
      } finally {
        off();
        clearInterval(ping);
      }
    }) as never;
  });

  app.openapi(get, async (c) => c.json(await one(await getOwnTask(db, signedInUser(c).id, c.req.valid('param').id)), 200));

  app.openapi(update, async (c) => {
    const task = await setTaskVisibility(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('json').visibility);
    return c.json(await one(task), 200);
  });

  app.openapi(remove, async (c) => {
    await generation.remove(signedInUser(c).id, c.req.valid('param').id);
    return c.body(null, 204);
  });

  app.openapi(cancel, async (c) => c.json(await one(await generation.cancel(signedInUser(c).id, c.req.valid('param').id)), 200));

  app.openapi(share, async (c) => {
    const task = await shareTask(db, signedInUser(c).id, c.req.valid('param').id);
    return c.json({ token: task.shareToken!, url: shareUrlOf(siteUrl, task.shareToken!) }, 200);
  });

  app.openapi(unshare, async (c) => {
    await unshareTask(db, signedInUser(c).id, c.req.valid('param').id);
    return c.body(null, 204);
  });

  app.openapi(explore, async (c) => {
    const q = c.req.valid('query');
    const page = await listPublicTasks(db, q.kind, { limit: q.limit, cursor: q.cursor });
    return c.json({ tasks: await many(page.tasks, false), nextCursor: page.nextCursor }, 200);
  });

  app.openapi(shared, async (c) => {
    const { token } = c.req.valid('param');
    const task = await getSharedTask(db, token);
    return c.json(await one(task, false, token), 200);
  });

  return app;
}
