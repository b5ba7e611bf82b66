import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, jsonContent } from '../http/openapi.ts';

const Health = z.object({ status: z.literal('ok'), startedAt: z.string() }).meta({ id: 'Health' });

export function healthRoutes() {
  const app = createRouter();
  const startedAt = new Date().toISOString();
  app.openapi(
    createRoute({ method: 'get', path: '/health', tags: ['meta'], summary: 'Liveness', responses: { 200: jsonContent(Health, 'The server is up') } }),
    (c) => c.json({ status: 'ok' as const, startedAt }, 200),
  );
  return app;
}
