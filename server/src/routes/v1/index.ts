/**
 * The business API under /v1: API key as Bearer, OpenAI-compatible where OpenAI has the
 * endpoint (models, images, chat, videos), music in the same task shape. Every POST honours
 * Idempotency-Key; every key has a rate limit; every error has OpenAI's shape.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { apiKeyAuth, type ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import type { Services } from '../../services.ts';
import { chatApi } from './chat.ts';
import { handleBusinessError, openAIError } from './errors.ts';
import { idempotency } from './idempotency.ts';
import { imageApi } from './images.ts';
import { modelApi } from './models.ts';
import { memoryRateLimitStore, rateLimit, redisRateLimitStore } from './rateLimit.ts';
import { taskApi } from './tasks.ts';

export function createBusinessApi(services: Services) {
  const { config } = services;
  const app = new Hono<ApiKeyEnv>();
  app.onError(handleBusinessError);
  const store = config.generation.redisUrl ? redisRateLimitStore(config.generation.redisUrl) : memoryRateLimitStore();
  services.generation.onStop(() => store.close());
  // Reads have no body to limit nor Idempotency-Key to honour, and skip both: a status poll is the
  // busiest request there is (asking a GET for its body would even build a whole Request).
  const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
  app.on(WRITES, '*', bodyLimit({ maxSize: config.generation.uploadLimitBytes, onError: (c) => openAIError(c, 'PAYLOAD_TOO_LARGE', 413) }));
  app.use('*', apiKeyAuth(services));
  app.use('*', rateLimit(store, config.generation.rateLimit));
  app.post('*', idempotency(services));

  app.route('/models', modelApi(services));
  app.route('/images', imageApi(services));
  app.route('/chat', chatApi(services));
  app.route('/videos', taskApi(services, 'video'));
  app.route('/music', taskApi(services, 'music'));
  app.all('*', (c) => openAIError(c, 'NOT_FOUND', 404, { message: `${c.req.method} ${c.req.path} does not exist` }));
  return app;
}
