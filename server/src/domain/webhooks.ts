/**
 * Webhook endpoints and their deliveries, signed in the Standard Webhooks format
 * (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with a `whsec_` secret.
 * A delivery row is written in the same transaction as the task's final state (an outbox), so an
 * event is never lost between the two; a dispatcher sends it afterwards and retries with backoff.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { CreateWebhookBody, UpdateWebhookBody, WebhookEventType } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { webhookDeliveries, webhookEndpoints, type TaskRow, type WebhookDeliveryRow, type WebhookEndpointRow } from '../db/schema.ts';
import { notFound } from './errors.ts';
import { randomToken } from './secrets.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` header value for one message. */
export function signWebhook(secret: string, messageId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSec}.${body}`).digest('base64')}`;
}

export async function createWebhookEndpoint(db: Database, userId: string, body: CreateWebhookBody): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  const secret = newWebhookSecret();
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({ userId, url: body.url, description: body.description?.trim() || null, events: [...new Set(body.events ?? [])], secret })
    .returning();
  return { endpoint: endpoint!, secret };
}

export function listWebhookEndpoints(db: Database, userId: string): Promise<WebhookEndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function updateWebhookEndpoint(db: Database, userId: string, id: string, patch: UpdateWebhookBody): Promise<WebhookEndpointRow> {
  const [endpoint] = await db
    .update(webhookEndpoints)
    .set({
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.description !== undefined ? { description: patch.description?.trim() || null } : {}),
      ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  if (!endpoint) throw notFound('webhook endpoint');
  return endpoint;
}

export async function deleteWebhookEndpoint(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw notFound('webhook endpoint');
}

/** `video.completed`, `music.failed`, …; a cancelled task counts as failed. */
export function taskEventType(task: Pick<TaskRow, 'kind' | 'status'>): WebhookEventType | null {
  if (task.status === 'completed') return `${task.kind}.completed`;
  if (task.status === 'failed' || task.status === 'cancelled') return `${task.kind}.failed`;
  return null;
}

/**
 * Writes one delivery per interested endpoint of the task's owner. Call inside the transaction
 * that gives the task its final state.
 */
export async function enqueueTaskWebhooks(tx: Database, task: TaskRow): Promise<number> {
  const type = taskEventType(task);
  if (!type) return 0;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, task.userId), eq(webhookEndpoints.enabled, true)));
  const targets = endpoints.filter((e) => e.events.length === 0 || e.events.includes(type));
  if (targets.length === 0) return 0;
  const createdAt = Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({
    id: `evt_${randomToken(12)}`,
    object: 'event',
    type,
    created_at: createdAt,
    data: {
      id: task.id,
      object: task.kind,
      status: task.status === 'cancelled' ? 'failed' : task.status,
      ...(task.errorCode ? { error: { code: task.errorCode } } : {}),
    },
  });
  await tx.insert(webhookDeliveries).values(
    targets.map((e) => ({ endpointId: e.id, messageId: `msg_${randomToken(16)}`, eventType: type, payload })),
  );
  return targets.length;
}

export interface DueDelivery {
  delivery: WebhookDeliveryRow;
  url: string;
  secret: string;
}

/**
 * Takes up to `limit` deliveries that are due, for `leaseMs`: another node (or this one after a
 * crash) takes them again only once the lease is over, so each attempt has one sender.
 */
export async function claimDueDeliveries(db: Database, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, new Date())))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() + leaseMs) })
      .where(inArray(webhookDeliveries.id, ids));
    const rows = await tx
      .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(inArray(webhookDeliveries.id, ids));
    return rows;
  });
}

/** After an attempt: delivered, or the next try after `retryDelaysMs[attempt]`, or given up. */
export async function recordDeliveryAttempt(
  db: Database,
  id: string,
  result: { ok: boolean; status: number | null; error: string | null },
  retryDelaysMs: readonly number[],
): Promise<WebhookDeliveryRow['status']> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastStatus: result.status, lastError: result.error?.slice(0, 500) ?? null })
    .where(eq(webhookDeliveries.id, id))
    .returning({ attempts: webhookDeliveries.attempts });
  if (!row) return 'failed';
  if (result.ok) {
    await db.update(webhookDeliveries).set({ status: 'delivered', deliveredAt: new Date() }).where(eq(webhookDeliveries.id, id));
    return 'delivered';
  }
  const delay = retryDelaysMs[row.attempts - 1];
  if (delay === undefined) {
    await db.update(webhookDeliveries).set({ status: 'failed' }).where(eq(webhookDeliveries.id, id));
    return 'failed';
  }
  await db.update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() + delay) }).where(eq(webhookDeliveries.id, id));
  return 'pending';
}

export function deliveriesOf(db: Database, endpointId: string): Promise<WebhookDeliveryRow[]> {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(desc(webhookDeliveries.createdAt));
}
