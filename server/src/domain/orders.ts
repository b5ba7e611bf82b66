import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { CreditPack, OrderStatus, PaymentProvider } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { orders, users, type OrderRow } from '../db/schema.ts';
import { postCredits } from './creditsLedger.ts';
import { DomainError, invalid, notFound } from './errors.ts';

export function findPack(packs: readonly CreditPack[], packId: string): CreditPack {
  const pack = packs.find((p) => p.id === packId);
  if (!pack) throw invalid('packId', `no pack "${packId}"`);
  return pack;
}

/** A pending order; the price is copied in, so later pricing changes do not touch it. */
export async function createOrder(db: Database, userId: string, pack: CreditPack, provider: PaymentProvider): Promise<OrderRow> {
  const [order] = await db
    .insert(orders)
    .values({ userId, packId: pack.id, credits: pack.credits, price: pack.price, currency: pack.currency, provider })
    .returning();
  return order!;
}

export async function attachCheckout(db: Database, orderId: string, checkout: { id: string; url: string }): Promise<OrderRow> {
  const [order] = await db
    .update(orders)
    .set({ checkoutSessionId: checkout.id, checkoutUrl: checkout.url })
    .where(eq(orders.id, orderId))
    .returning();
  return order!;
}

export function listOrders(db: Database, userId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(200);
}

/** Scoped to the owner: another user's order is not found. */
export async function getOrder(db: Database, userId: string, id: string): Promise<OrderRow> {
  const [order] = await db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, userId)));
  if (!order) throw notFound('order');
  return order;
}

export async function listAllOrders(db: Database, filter: { status?: OrderStatus | undefined; limit: number; offset: number }) {
  const where: SQL | undefined = filter.status ? eq(orders.status, filter.status) : undefined;
  const rows = await db
    .select({ order: orders, userEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(orders).where(where);
  return { orders: rows.map((r) => ({ ...r.order, userEmail: r.userEmail })), total: Number(total) };
}

/**
 * Marks a pending order paid and credits its pack, in one transaction. The conditional update
 * lets exactly one caller win, whether an admin clicks twice or Stripe sends two events.
 */
export async function settleOrder(db: Database, orderId: string, approvedBy: string | null = null): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ status: 'paid', paidAt: new Date(), approvedBy })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
      .returning();
    if (!order) {
      const [existing] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
      throw existing ? new DomainError('ORDER_NOT_PENDING', 409) : notFound('order');
    }
    await postCredits(tx, {
      userId: order.userId,
      kind: 'topup',
      amount: order.credits,
      reason: `Credit pack "${order.packId}"`,
      orderId: order.id,
      idempotencyKey: `order:${order.id}`,
      createdBy: approvedBy,
    });
    return order;
  });
}

/** An admin confirms a manual order was paid (bank transfer, cash...). Stripe orders settle only by webhook. */
export async function approveManualOrder(db: Database, orderId: string, approvedBy: string | null): Promise<OrderRow> {
  const [order] = await db.select({ provider: orders.provider }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw notFound('order');
  if (order.provider !== 'manual') throw new DomainError('FORBIDDEN', 403, 'only manual orders are approved by hand');
  return settleOrder(db, orderId, approvedBy);
}

export async function cancelOrder(db: Database, orderId: string): Promise<OrderRow | null> {
  const [order] = await db
    .update(orders)
    .set({ status: 'cancelled' })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning();
  return order ?? null;
}
