import { createRoute } from '@hono/zod-openapi';
import { Pricing } from '@atelier/api/schemas';
import { createRouter, jsonContent } from '../http/openapi.ts';
import type { Services } from '../services.ts';

const pricing = createRoute({
  method: 'get',
  path: '/pricing',
  tags: ['pricing'],
  summary: 'The credit packs on sale',
  responses: { 200: jsonContent(Pricing, 'Packs and how they are paid for') },
});

export function pricingRoutes({ config }: Services) {
  const app = createRouter();
  const body = { packs: config.pricing.packs, provider: config.stripe ? ('stripe' as const) : ('manual' as const) };
  app.openapi(pricing, (c) => c.json(body, 200));
  return app;
}
