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

/** Adds a batch of requests to a window's count, and starts the window's expiry with its first. */
const HIT = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

type RedisWithHit = Redis & { rateLimitHit(key: string, requests: number, ttlMs: number): Promise<number> };

interface Batch {
  ttlMs: number;
  waiting: { resolve(count: number): void; reject(err: Error): void }[];
}

/**
 * Counts in Redis, as exactly as one INCR per request would: the requests of one turn of the event
 * loop are added to their window's count together (one command per key, not per request), and
 * each is given its own place in the count.
 */
export function redisRateLimitStore(redisUrl: string): RateLimitStore {
  let redis: RedisWithHit | null = null;
  const connect = () => {
    if (!redis) {
      redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 }) as RedisWithHit;
      redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT });
      redis.on('error', (err: Error) => console.error('rate limits (redis):', err.message));
    }
    return redis;
  };
  const batches = new Map<string, Batch>();
  const flush = () => {
    const due = [...batches];
    batches.clear();
    for (const [name, { ttlMs, waiting }] of due) {
      connect()
        .rateLimitHit(name, waiting.length, ttlMs)
        .then(
          (total) => waiting.forEach((w, i) => w.resolve(Number(total) - waiting.length + i + 1)),
          (err: Error) => waiting.forEach((w) => w.reject(err)),
        );
    }
  };
  return {
    hit(key, windowStart, windowMs) {
      const name = `atelier:ratelimit:${key}:${windowStart}`;
      let batch = batches.get(name);
      if (!batch) {
        if (batches.size === 0) setImmediate(flush);
        batches.set(name, (batch = { ttlMs: windowMs + 1000, waiting: [] }));
      }
      const waiting = batch.waiting;
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
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
