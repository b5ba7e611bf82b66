/**
 * Idempotency-Key for business-API writes: the first request with a key is processed and its
 * answer kept; a repeat with the same body gets that answer again, a repeat while the first is
 * still running is told to wait (409), and the same key with another body is refused (422).
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { idempotentRequests } from '../db/schema.ts';
import { isUniqueViolation } from './errors.ts';

export type IdempotencyClaim =
  | { state: 'new' }
  | { state: 'replay'; status: number; contentType: string; body: string }
  | { state: 'in_flight' }
  | { state: 'mismatch' };

/** A request that has been "in flight" this long belonged to a process that died: take it over. */
const ABANDONED_AFTER_MS = 10 * 60_000;

export async function claimIdempotencyKey(db: Database, userId: string, key: string, requestHash: string, ttlMs: number): Promise<IdempotencyClaim> {
  const where = and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key));
  // Expired keys, and abandoned attempts, are free again.
  await db
    .delete(idempotentRequests)
    .where(
      and(
        where,
        sql`(${idempotentRequests.expiresAt} < now() OR (${idempotentRequests.state} = 'in_flight' AND ${idempotentRequests.createdAt} < ${new Date(Date.now() - ABANDONED_AFTER_MS).toISOString()}::timestamptz))`,
      ),
    );
  try {
    await db.insert(idempotentRequests).values({ userId, key, requestHash, state: 'in_flight', expiresAt: new Date(Date.now() + ttlMs) });
    return { state: 'new' };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const [prior] = await db.select().from(idempotentRequests).where(where);
  if (!prior) return claimIdempotencyKey(db, userId, key, requestHash, ttlMs);
  if (prior.requestHash !== requestHash) return { state: 'mismatch' };
  if (prior.state === 'in_flight') return { state: 'in_flight' };
  return { state: 'replay', status: prior.responseStatus ?? 200, contentType: prior.responseType ?? 'application/json', body: prior.responseBody ?? '' };
}

export async function completeIdempotencyKey(db: Database, userId: string, key: string, answer: { status: number; contentType: string; body: string }): Promise<void> {
  await db
    .update(idempotentRequests)
    .set({ state: 'done', responseStatus: answer.status, responseType: answer.contentType, responseBody: answer.body })
    .where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key)));
}

/** The attempt ended in a way worth retrying (a server error, a conflict): forget the key. */
export async function releaseIdempotencyKey(db: Database, userId: string, key: string): Promise<void> {
  await db.delete(idempotentRequests).where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key), eq(idempotentRequests.state, 'in_flight')));
}

export async function purgeExpiredIdempotencyKeys(db: Database): Promise<void> {
  await db.delete(idempotentRequests).where(lt(idempotentRequests.expiresAt, new Date()));
}
