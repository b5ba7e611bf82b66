import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { orders, stripeEvents, type OrderRow } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { cancelOrder, settleOrder } from './orders.ts';
import { safeEqual } from './secrets.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com, or a local stand-in in tests. */
  apiBase: string;
}

/** Creates a Checkout Session for a pending order: Stripe's hosted page takes the payment. */
export async function createCheckoutSession(
  stripe: StripeSettings,
  order: OrderRow,
  customerEmail: string,
  urls: { success: string; cancel: string },
): Promise<{ id: string; url: string }> {
  const form = new URLSearchParams({
    mode: 'payment',
    success_url: urls.success,
    cancel_url: urls.cancel,
    client_reference_id: order.id,
    customer_email: customerEmail,
    'metadata[order_id]': order.id,
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': order.currency,
    'line_items[0][price_data][unit_amount]': String(order.price),
    'line_items[0][price_data][product_data][name]': `${order.credits} credits`,
  });
  let res: Response;
  try {
    res = await fetch(`${stripe.apiBase}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stripe.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        // A retried create returns the same session instead of a second one.
        'idempotency-key': `checkout-${order.id}`,
      },
      body: form,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new DomainError('PAYMENT_FAILED', 502, `Stripe unreachable: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => null)) as { id?: string; url?: string; error?: { message?: string } } | null;
  if (!res.ok || !body?.id || !body.url) {
    throw new DomainError('PAYMENT_FAILED', 502, `Stripe answered ${res.status}: ${body?.error?.message ?? 'no session'}`);
  }
  return { id: body.id, url: body.url };
}

/**
 * Stripe's webhook signature: header `t=<unix seconds>,v1=<hex>[,v1=...]`, where v1 is
 * HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. The time bound stops replays of
 * old captured deliveries.
 */
export function verifyStripeSignature(rawBody: string, header: string | undefined, secret: string, toleranceSec = 300, nowSec = Date.now() / 1000): boolean {
  if (!header) return false;
  let timestamp: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.split('=', 2).map((s) => s.trim());
    if (k === 't' && v) timestamp = v;
    if (k === 'v1' && v) signatures.push(v);
  }
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) return false;
  if (Math.abs(nowSec - Number(timestamp)) > toleranceSec) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return signatures.some((s) => safeEqual(s, expected));
}

/** Builds a valid header, as Stripe would: for tests and local tooling. */
export function signStripePayload(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export type EventOutcome = 'credited' | 'cancelled' | 'duplicate' | 'ignored';

/**
 * Applies one verified event, once: its id is recorded in the same transaction as its effect,
 * so a redelivery finds it and does nothing, and a failure records nothing (Stripe retries).
 */
export async function applyStripeEvent(db: Database, event: StripeEvent): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const fresh = await tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning();
    if (fresh.length === 0) return 'duplicate';
    const session = event.data.object;
    const sessionId = typeof session.id === 'string' ? session.id : null;
    if (!sessionId) return 'ignored';
    const [order] = await tx.select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
    if (!order || order.status !== 'pending') return 'ignored';
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        if (session.payment_status !== 'paid') return 'ignored';
        // The amount paid must be the order's: a session edited elsewhere credits nothing.
        if (session.amount_total !== order.price || session.currency !== order.currency) return 'ignored';
        await settleOrder(tx, order.id);
        return 'credited';
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed':
        await cancelOrder(tx, order.id);
        return 'cancelled';
      default:
        return 'ignored';
    }
  });
}
