import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../domain/idempotentRequests.ts';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import type { Services } from '../../services.ts';
import { openAIError } from './errors.ts';

/**
 * What makes two requests "the same": method, path and body. A multipart body is compared by its
 * fields and file contents, since a client retrying it sends a new boundary each time.
 */
async function requestHash(c: Context): Promise<string> {
  const h = createHash('sha256').update(`${c.req.method} ${c.req.path}\n`);
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
    const form = await c.req.formData();
    const entries: string[] = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') entries.push(`${name}=${value}`);
      else entries.push(`${name}=file:${value.size}:${createHash('sha256').update(new Uint8Array(await value.arrayBuffer())).digest('hex')}`);
    }
    h.update(entries.sort().join('\n'));
  } else h.update(new Uint8Array(await c.req.arrayBuffer()));
  return h.digest('hex');
}

/** Answers worth keeping for replays: success and the client's mistakes, not a passing state. */
const keepable = (status: number) => status < 500 && status !== 402 && status !== 409 && status !== 429;

export function idempotency({ db, config }: Services): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined) return next();
    if (key.length === 0 || key.length > 255) return openAIError(c, 'VALIDATION_FAILED', 400, { message: 'Idempotency-Key must be 1 to 255 characters', param: 'Idempotency-Key' });
    const { userId } = c.get('apiKey');
    const claim = await claimIdempotencyKey(db, userId, key, await requestHash(c), config.generation.idempotencyTtlMs);
    if (claim.state === 'mismatch') return openAIError(c, 'IDEMPOTENCY_KEY_REUSED', 422, { param: 'Idempotency-Key' });
    if (claim.state === 'in_flight') return openAIError(c, 'IDEMPOTENCY_KEY_IN_USE', 409, { param: 'Idempotency-Key' });
    if (claim.state === 'replay') {
      return new Response(claim.body, { status: claim.status, headers: { 'content-type': claim.contentType, 'idempotent-replayed': 'true' } });
    }
    try {
      await next();
    } catch (err) {
      await releaseIdempotencyKey(db, userId, key);
      throw err;
    }
    const res = c.res;
    if (!keepable(res.status)) {
      await releaseIdempotencyKey(db, userId, key);
      return;
    }
    const contentType = res.headers.get('content-type') ?? 'application/json';
    const keep = (body: string) => completeIdempotencyKey(db, userId, key, { status: res.status, contentType, body });
    if (contentType.startsWith('text/event-stream')) {
      // A stream is kept once it has been sent in full; a repeat gets it all at once.
      void res
        .clone()
        .text()
        .then(keep, () => releaseIdempotencyKey(db, userId, key))
        .catch((err: Error) => console.error('idempotency:', err.message));
    } else await keep(await res.clone().text());
  };
}
