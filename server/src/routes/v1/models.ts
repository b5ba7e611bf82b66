import { Hono } from 'hono';
import type { ApiKeyEnv } from '../../http/apiKeyAuth.ts';
import type { Services } from '../../services.ts';
import { modelBody } from '../models.ts';
import { notFound } from '../../domain/errors.ts';

/** A fixed date: models have no creation time of their own, and the list should not change per call. */
const CREATED = Math.floor(Date.UTC(2026, 0, 1) / 1000);

export function modelApi({ generation }: Services) {
  const app = new Hono<ApiKeyEnv>();
  const object = (id: string) => {
    const d = generation.models.find(id)?.descriptor;
    if (!d) throw notFound('model');
    // OpenAI's four fields, then Atelier's: kind, engine, price and limits.
    return { ...modelBody(d), id: d.id, object: 'model', created: CREATED, owned_by: d.engine === 'builtin' ? 'atelier' : d.engine };
  };
  app.get('/', (c) => c.json({ object: 'list', data: generation.models.list().map((d) => object(d.id)) }));
  app.get('/:id', (c) => c.json(object(c.req.param('id'))));
  return app;
}
