import { createRoute } from '@hono/zod-openapi';
import { ModelList, type ModelInfo } from '@atelier/api/schemas';
import type { ModelDescriptor } from '../engines/models.ts';
import { createRouter, jsonContent } from '../http/openapi.ts';
import type { Services } from '../services.ts';

export function modelBody(d: ModelDescriptor): ModelInfo {
  return {
    id: d.id,
    kind: d.kind,
    engine: d.engine,
    displayName: d.displayName,
    description: d.description,
    price: d.price,
    priceUnit: d.priceUnit,
    capabilities: [...d.capabilities],
    defaults: { ...d.defaults },
    limits: Object.fromEntries(Object.entries(d.limits).map(([k, v]) => [k, Array.isArray(v) ? [...v] : { ...(v as object) }])) as ModelInfo['limits'],
  };
}

const list = createRoute({
  method: 'get',
  path: '/models',
  tags: ['tasks'],
  summary: 'The models of every kind: engine, price in credits, defaults and limits',
  responses: { 200: jsonContent(ModelList, 'Models') },
});

export function modelRoutes({ generation }: Services) {
  const app = createRouter();
  app.openapi(list, (c) => c.json({ models: generation.models.list().map(modelBody) }, 200));
  return app;
}
