import { createRoute } from '@hono/zod-openapi';
import { AdminCreateUserBody, AdminOrder, AdminOrderList, AdminOrderQuery, AdminUpdateUserBody, AdminUser, AdminUserList, AdminUserQuery, CreateApiKeyBody, CreatedApiKey, CreditAdjustment, CreditAdjustmentBody, IdParams } from '@atelier/api/schemas';
import { changeAccount, createAccount, getUser, listUsers } from '../domain/accounts.ts';
import { createApiKey } from '../domain/apiKeys.ts';
import { balanceOf, postCredits } from '../domain/creditsLedger.ts';
import { approveManualOrder, listAllOrders } from '../domain/orders.ts';
import { ADMIN_SECURITY, createRouter, errorResponses, jsonBody, jsonContent } from '../http/openapi.ts';
import { adminOrderBody, adminUserBody, apiKeyBody, ledgerEntryBody } from '../http/responses.ts';
import { actorId, adminActor, requireAdmin } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

export function adminRoutes(services: Services) {
  const { db, config } = services;
  const common = { tags: ['admin'], security: ADMIN_SECURITY, middleware: requireAdmin(services) };
  const app = createRouter();

  const withCredits = async (id: string) => {
    const user = await getUser(db, id);
    return adminUserBody({ ...user, credits: await balanceOf(db, id) });
  };

  app.openapi(
    createRoute({
      ...common,
      method: 'get',
      path: '/admin/users',
      summary: 'List and search accounts',
      request: { query: AdminUserQuery },
      responses: { 200: jsonContent(AdminUserList, 'Accounts, newest first'), ...errorResponses(400, 401, 403) },
    }),
    async (c) => {
      const found = await listUsers(db, c.req.valid('query'));
      return c.json({ users: found.users.map(adminUserBody), total: found.total }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'post',
      path: '/admin/users',
      summary: 'Create an account',
      request: { body: jsonBody(AdminCreateUserBody) },
      responses: { 201: jsonContent(AdminUser, 'The account'), ...errorResponses(400, 401, 403, 409) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const user = await createAccount(db, { email: body.email, password: body.password ?? null, name: body.name ?? null, role: body.role }, config.freeCredits);
      return c.json(await withCredits(user.id), 201);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'patch',
      path: '/admin/users/{id}',
      summary: 'Change an account: role, or disable (which signs it out everywhere)',
      request: { params: IdParams, body: jsonBody(AdminUpdateUserBody) },
      responses: { 200: jsonContent(AdminUser, 'The account'), ...errorResponses(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await changeAccount(db, id, c.req.valid('json'), actorId(adminActor(c)));
      return c.json(await withCredits(id), 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'post',
      path: '/admin/users/{id}/credits',
      summary: 'Adjust an account’s credits, with a reason',
      description: 'Positive adds, negative removes; the balance cannot go below zero (INSUFFICIENT_BALANCE).',
      request: { params: IdParams, body: jsonBody(CreditAdjustmentBody) },
      responses: { 200: jsonContent(CreditAdjustment, 'The new balance and the ledger entry'), ...errorResponses(400, 401, 402, 403, 404, 409) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await getUser(db, id);
      const posted = await postCredits(db, {
        userId: id,
        kind: 'adjustment',
        amount: body.amount,
        reason: body.reason,
        idempotencyKey: body.idempotencyKey ?? null,
        createdBy: actorId(adminActor(c)),
      });
      return c.json({ balance: posted.balance, entry: ledgerEntryBody(posted.entry) }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'post',
      path: '/admin/users/{id}/api-keys',
      summary: 'Create an API key for an account',
      description: 'For operators provisioning business users; the secret is in this answer only.',
      request: { params: IdParams, body: jsonBody(CreateApiKeyBody) },
      responses: { 201: jsonContent(CreatedApiKey, 'The key and its secret'), ...errorResponses(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await getUser(db, id);
      const { key, secret } = await createApiKey(db, id, c.req.valid('json').name);
      return c.json({ key: apiKeyBody(key), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'get',
      path: '/admin/orders',
      summary: 'List orders',
      request: { query: AdminOrderQuery },
      responses: { 200: jsonContent(AdminOrderList, 'Orders, newest first'), ...errorResponses(400, 401, 403) },
    }),
    async (c) => {
      const found = await listAllOrders(db, c.req.valid('query'));
      return c.json({ orders: found.orders.map(adminOrderBody), total: found.total }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: 'post',
      path: '/admin/orders/{id}/approve',
      summary: 'Approve a pending manual order: its credits are added',
      request: { params: IdParams },
      responses: { 200: jsonContent(AdminOrder, 'The paid order'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const order = await approveManualOrder(db, id, actorId(adminActor(c)));
      const user = await getUser(db, order.userId);
      return c.json(adminOrderBody({ ...order, userEmail: user.email }), 200);
    },
  );

  return app;
}
