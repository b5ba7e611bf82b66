import { createRoute, z } from '@hono/zod-openapi';
import { applyStripeEvent, verifyStripeSignature, type StripeEvent } from '../domain/stripeCheckout.ts';
import { DomainError } from '../domain/errors.ts';
import { createRouter, errorResponses, jsonContent } from '../http/openapi.ts';
import type { Services } from '../services.ts';

const Received = z
  .object({ received: z.literal(true), outcome: z.enum(['credited', 'cancelled', 'duplicate', 'ignored']) })
  .meta({ id: 'StripeWebhookReceipt' });

const webhook = createRoute({
  method: 'post',
  path: '/webhooks/stripe',
  tags: ['payments'],
  summary: 'Stripe events (Checkout)',
  description:
    "Stripe calls this with a signed event. The `Stripe-Signature` header is verified against the raw body with STRIPE_WEBHOOK_SECRET; each event id is applied once. Only `checkout.session.completed` (paid) credits an order.",
  request: { headers: z.object({ 'stripe-signature': z.string().optional() }) },
  responses: { 200: jsonContent(Received, 'Accepted (also for duplicates and events of no interest)'), ...errorResponses(400, 401, 404) },
});

export function stripeWebhookRoutes({ db, config }: Services) {
  const app = createRouter();
  app.openapi(webhook, async (c) => {
    if (!config.stripe) throw new DomainError('NOT_FOUND', 404, 'Stripe is not configured');
    // The signature covers the exact bytes sent, so the body is read raw, before any parsing.
    const raw = await c.req.text();
    if (!verifyStripeSignature(raw, c.req.header('stripe-signature'), config.stripe.webhookSecret)) {
      throw new DomainError('UNAUTHORIZED', 401, 'bad Stripe signature');
    }
    let event: StripeEvent;
    try {
      event = JSON.parse(raw) as StripeEvent;
    } catch {
      throw new DomainError('VALIDATION_FAILED', 400, 'not JSON');
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object') {
      throw new DomainError('VALIDATION_FAILED', 400, 'not a Stripe event');
    }
    const outcome = await applyStripeEvent(db, event);
    return c.json({ received: true as const, outcome }, 200);
  });
  return app;
}
