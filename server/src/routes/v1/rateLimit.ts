/**
 * Requests per API key per window, counted in memory or, with REDIS_URL, in Redis so every node
 * shares the count. Every answer says where the key stands (RateLimit-Limit, -Remaining, -Reset);
 * past the limit the answer is 429 with Retry-After, and nothing is spent.
 */
import type { MiddlewareHandler } from 'hono';
import { Redis } from 'ioredis';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import { openAIError } from './errors.ts';

export interface RateLimitStore {
  /** Counts one request in the window and returns the count so far. */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

export function memoryRateLimitStore(): RateLimitStore {
  const counts = new Map<string, { window: number; count: number }>();
  return {
    async hit(key, windowStart) {
      const entry = counts.get(key);
      if (!entry || entry.window !== windowStart) {
        // Old windows go as soon as a new one starts; the map holds one entry per active key.
        counts.set(key, { window: windowStart, count: 1 });
        return 1;
      }
      entry.count += 1;
      return entry.count;
    },
    async close() {},
  };
}

export function redisRateLimitStore(redisUrl: string): RateLimitStore {
  let redis: Redis | null = null;
  const connect = () => {
    if (!redis) {
      redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
      redis.on('error', (err: Error) => console.error('rate limits (redis):', err.message));
    }
    return redis;
  };
  return {
    async hit(key, windowStart, windowMs) {
      const redis = connect();
      const name = `atelier:ratelimit:${key}:${windowStart}`;
      const results = await redis.multi().incr(name).pexpire(name, windowMs + 1000).exec();
      const [err, count] = results?.[0] ?? [new Error('no answer'), 0];
      if (err) throw err;
      return Number(count);
    },
    async close() {
      await redis?.quit().catch(() => undefined);
      redis = null;
    },
  };
}

export function rateLimit(store: RateLimitStore, limit: { max: number; windowMs: number }): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    const now = Date.now();
    const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
    const resetSec = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
    let count: number;
    try {
      count = await store.hit(c.get('apiKey').keyId, windowStart, limit.windowMs);
    } catch (err) {
      // A limiter that cannot count must not take the API down with it.
      console.error('rate limit:', (err as Error).message);
      return next();
    }
    const headers = {
      'ratelimit-limit': String(limit.max),
      'ratelimit-remaining': String(Math.max(0, limit.max - count)),
      'ratelimit-reset': String(resetSec),
    };
    if (count > limit.max) {
      const res = openAIError(c, 'RATE_LIMITED', 429);
      for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
      res.headers.set('retry-after', String(resetSec));
      return res;
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
