import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../domain/errors.ts';
import { getMedia } from '../domain/tasks.ts';
import { canSeeMedia, parseRange } from '../domain/tasksMedia.ts';
import { apiError } from '../http/apiErrors.ts';
import { createRouter, errorResponses } from '../http/openapi.ts';
import type { Services } from '../services.ts';

const file = createRoute({
  method: 'get',
  path: '/media/{id}',
  tags: ['tasks'],
  summary: 'A generated file (or your uploaded picture)',
  description:
    'Private files are served to their owner only, or with the task’s share token (`share`) or a signed link (`expires` and `signature`, from the business API). Public ones to anyone. Single byte ranges are honoured (206) for seeking in video and audio.',
  request: {
    params: z.object({ id: z.uuid() }),
    query: z.object({ share: z.string().max(100).optional(), expires: z.string().max(20).optional(), signature: z.string().max(100).optional() }),
    headers: z.object({ range: z.string().optional() }),
  },
  responses: {
    200: { description: 'The whole file, with its content type' },
    206: { description: 'The requested range' },
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 404, 416),
  },
});

export function mediaRoutes({ db, generation }: Services) {
  const app = createRouter();
  app.openapi(file, async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const found = await getMedia(db, id);
    const session = c.get('session');
    const viewer = { userId: session.status === 'valid' ? session.user.id : null, shareToken: q.share, expires: q.expires, signature: q.signature };
    if (!found || !(await canSeeMedia(db, found.file, found.task, viewer))) throw notFound('file');
    const { file: media, task } = found;
    const etag = `"${media.id}"`;
    const headers: Record<string, string> = {
      'content-type': media.contentType,
      'accept-ranges': 'bytes',
      etag,
      // Visibility can change, so every use asks again (the ETag makes that cheap).
      'cache-control': task.visibility === 'public' && !viewer.userId ? 'public, max-age=0, must-revalidate' : 'private, max-age=0, must-revalidate',
      'x-content-type-options': 'nosniff',
      'content-disposition': `inline; filename="${media.id}.${media.storageKey.split('.').pop()}"`,
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers) as never;
    const range = parseRange(c.req.header('range'), media.byteSize);
    if (range === 'unsatisfiable') {
      c.header('content-range', `bytes */${media.byteSize}`);
      return apiError(c, 'VALIDATION_FAILED', 416) as never;
    }
    const stream = await generation.storage.read(media.storageKey, range ?? undefined);
    if (!stream) throw notFound('file');
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${media.byteSize}`;
      headers['content-length'] = String(range.end - range.start + 1);
      return c.body(stream, 206, headers) as never;
    }
    headers['content-length'] = String(media.byteSize);
    return c.body(stream, 200, headers) as never;
  });
  return app;
}
