import { createRoute } from '@hono/zod-openapi';
import { CreateWebhookBody, CreatedWebhookEndpoint, IdParams, UpdateWebhookBody, WebhookEndpoint, WebhookEndpointList, type WebhookEventType } from '@atelier/api/schemas';
import type { WebhookEndpointRow } from '../db/schema.ts';
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from '../domain/webhooks.ts';
import { createRouter, errorResponses, jsonBody, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

export function webhookEndpointBody(e: WebhookEndpointRow): WebhookEndpoint {
  return { id: e.id, url: e.url, description: e.description, events: e.events as WebhookEventType[], enabled: e.enabled, createdAt: e.createdAt.toISOString() };
}

const common = { tags: ['webhooks'], security: SESSION_SECURITY, middleware: requireUser };

const list = createRoute({
  ...common,
  method: 'get',
  path: '/webhooks',
  summary: 'Your webhook endpoints',
  responses: { 200: jsonContent(WebhookEndpointList, 'Endpoints, without secrets'), ...errorResponses(401) },
});

const create = createRoute({
  ...common,
  method: 'post',
  path: '/webhooks',
  summary: 'Add a webhook endpoint',
  description:
    'Task events (`video.completed`, `music.failed`, …) are POSTed to the URL, signed in the Standard Webhooks format with the `whsec_` secret shown once in this answer, and retried with backoff until a 2xx answer.',
  request: { body: jsonBody(CreateWebhookBody) },
  responses: { 201: jsonContent(CreatedWebhookEndpoint, 'The endpoint and its signing secret'), ...errorResponses(400, 401, 403) },
});

const update = createRoute({
  ...common,
  method: 'patch',
  path: '/webhooks/{id}',
  summary: 'Change or pause a webhook endpoint',
  request: { params: IdParams, body: jsonBody(UpdateWebhookBody) },
  responses: { 200: jsonContent(WebhookEndpoint, 'The endpoint'), ...errorResponses(400, 401, 403, 404) },
});

const remove = createRoute({
  ...common,
  method: 'delete',
  path: '/webhooks/{id}',
  summary: 'Delete a webhook endpoint',
  request: { params: IdParams },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404) },
});

export function webhookRoutes({ db }: Services) {
  const app = createRouter();
  app.openapi(list, async (c) => c.json({ endpoints: (await listWebhookEndpoints(db, signedInUser(c).id)).map(webhookEndpointBody) }, 200));
  app.openapi(create, async (c) => {
    const { endpoint, secret } = await createWebhookEndpoint(db, signedInUser(c).id, c.req.valid('json'));
    return c.json({ endpoint: webhookEndpointBody(endpoint), secret }, 201);
  });
  app.openapi(update, async (c) => {
    const endpoint = await updateWebhookEndpoint(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('json'));
    return c.json(webhookEndpointBody(endpoint), 200);
  });
  app.openapi(remove, async (c) => {
    await deleteWebhookEndpoint(db, signedInUser(c).id, c.req.valid('param').id);
    return c.body(null, 204);
  });
  return app;
}
