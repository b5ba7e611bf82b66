import { createRoute } from '@hono/zod-openapi';
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey, IdParams, UpdateApiKeyBody, ApiKey } from '@atelier/api/schemas';
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyStatus } from '../domain/apiKeys.ts';
import { createRouter, errorResponses, jsonBody, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { apiKeyBody } from '../http/responses.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

const common = { tags: ['api-keys'], security: SESSION_SECURITY, middleware: requireUser };

const list = createRoute({
  ...common,
  method: 'get',
  path: '/api-keys',
  summary: 'Your API keys, newest first (masked)',
  responses: { 200: jsonContent(ApiKeyList, 'Keys without secrets'), ...errorResponses(401) },
});

const create = createRoute({
  ...common,
  method: 'post',
  path: '/api-keys',
  summary: 'Create an API key',
  description: 'The answer carries the secret, once; only its hash is stored.',
  request: { body: jsonBody(CreateApiKeyBody) },
  responses: { 201: jsonContent(CreatedApiKey, 'The new key and its secret'), ...errorResponses(400, 401, 403) },
});

const update = createRoute({
  ...common,
  method: 'patch',
  path: '/api-keys/{id}',
  summary: 'Activate or deactivate an API key',
  description: 'A deactivated key is refused by the business API from the next request on.',
  request: { params: IdParams, body: jsonBody(UpdateApiKeyBody) },
  responses: { 200: jsonContent(ApiKey, 'The key'), ...errorResponses(400, 401, 403, 404) },
});

const remove = createRoute({
  ...common,
  method: 'delete',
  path: '/api-keys/{id}',
  summary: 'Delete an API key',
  request: { params: IdParams },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404) },
});

export function apiKeyRoutes({ db }: Services) {
  const app = createRouter();
  app.openapi(list, async (c) => {
    const keys = await listApiKeys(db, signedInUser(c).id);
    return c.json({ keys: keys.map(apiKeyBody) }, 200);
  });
  app.openapi(create, async (c) => {
    const { key, secret } = await createApiKey(db, signedInUser(c).id, c.req.valid('json').name);
    return c.json({ key: apiKeyBody(key), secret }, 201);
  });
  app.openapi(update, async (c) => {
    const key = await setApiKeyStatus(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('json').status);
    return c.json(apiKeyBody(key), 200);
  });
  app.openapi(remove, async (c) => {
    await deleteApiKey(db, signedInUser(c).id, c.req.valid('param').id);
    return c.body(null, 204);
  });
  return app;
}
