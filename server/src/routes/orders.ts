import { createRoute } from '@hono/zod-openapi';
import { CreateOrderBody, IdParams, Order, OrderList } from '@atelier/api/schemas';
import { attachCheckout, cancelOrder, createOrder, findPack, getOrder, listOrders } from '../domain/orders.ts';
import { createCheckoutSession } from '../domain/stripeCheckout.ts';
import { createRouter, errorResponses, jsonBody, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { orderBody } from '../http/responses.ts';
import { requireUser, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

const common = { tags: ['orders'], security: SESSION_SECURITY, middleware: requireUser };

const create = createRoute({
  ...common,
  method: 'post',
  path: '/orders',
  summary: 'Buy a credit pack',
  description:
    'Creates a pending order. With Stripe configured the answer carries `checkoutUrl` and the credits arrive with Stripe\'s webhook; otherwise an admin approves the order.',
  request: { body: jsonBody(CreateOrderBody) },
  responses: { 201: jsonContent(Order, 'The pending order'), ...errorResponses(400, 401, 403, 502) },
});

const list = createRoute({
  ...common,
  method: 'get',
  path: '/orders',
  summary: 'Your orders, newest first',
  responses: { 200: jsonContent(OrderList, 'Orders'), ...errorResponses(401) },
});

const show = createRoute({
  ...common,
  method: 'get',
  path: '/orders/{id}',
  summary: 'One of your orders',
  request: { params: IdParams },
  responses: { 200: jsonContent(Order, 'The order'), ...errorResponses(400, 401, 404) },
});

export function orderRoutes({ db, config }: Services) {
  const app = createRouter();

  app.openapi(create, async (c) => {
    const user = signedInUser(c);
    const pack = findPack(config.pricing.packs, c.req.valid('json').packId);
    let order = await createOrder(db, user.id, pack, config.stripe ? 'stripe' : 'manual');
    if (config.stripe) {
      const site = config.publicConfig.siteUrl;
      try {
        const checkout = await createCheckoutSession(config.stripe, order, user.email, {
          success: `${site}/user/orders?order=${order.id}`,
          cancel: `${site}/pricing?order=${order.id}`,
        });
        order = await attachCheckout(db, order.id, checkout);
      } catch (err) {
        await cancelOrder(db, order.id);
        throw err;
      }
    }
    return c.json(orderBody(order), 201);
  });

  app.openapi(list, async (c) => c.json({ orders: (await listOrders(db, signedInUser(c).id)).map(orderBody) }, 200));

  app.openapi(show, async (c) => c.json(orderBody(await getOrder(db, signedInUser(c).id, c.req.valid('param').id)), 200));

  return app;
}
