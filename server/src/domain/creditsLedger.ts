import { and, desc, eq, lt } from 'drizzle-orm';
import type { LedgerKind } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { creditBalances, creditLedger, type LedgerRow } from '../db/schema.ts';
import { DomainError, notFound } from './errors.ts';

export interface Posting {
  userId: string;
  kind: LedgerKind;
  /** Signed: spends are negative; grants, top-ups and refunds positive; adjustments either. */
  amount: number;
  reason: string;
  orderId?: string | null;
  taskId?: string | null;
  /** Unique per user: posting again with the same key returns the first entry and moves nothing. */
  idempotencyKey?: string | null;
  /** The admin who made an adjustment; null for the system and the operator. */
  createdBy?: string | null;
}

export interface Posted {
  entry: LedgerRow;
  balance: number;
  /** True when the idempotency key had already been used: nothing moved this time. */
  replayed: boolean;
}

const POSITIVE_KINDS: readonly LedgerKind[] = ['grant', 'topup', 'refund'];

function checkSign(p: Posting): void {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new DomainError('VALIDATION_FAILED', 400, 'amount must be a non-zero integer');
  if (p.kind === 'spend' && p.amount > 0) throw new DomainError('VALIDATION_FAILED', 400, 'a spend is negative');
  if (POSITIVE_KINDS.includes(p.kind) && p.amount < 0) throw new DomainError('VALIDATION_FAILED', 400, `a ${p.kind} is positive`);
}

/**
 * Appends one entry and moves the balance with it, atomically. The user's balance row is locked
 * (SELECT ... FOR UPDATE) for the whole transaction, so concurrent postings for one user queue:
 * the balance check, the idempotency check and the write see one consistent state, entries get
 * ids in the order they were applied, and `balance_after` is the true running balance.
 * Takes a transaction too, so a spend can commit together with the action it pays for.
 */
export async function postCredits(db: Database, p: Posting): Promise<Posted> {
  checkSign(p);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ balance: creditBalances.balance })
      .from(creditBalances)
      .where(eq(creditBalances.userId, p.userId))
      .for('update');
    if (!row) throw notFound('account');
    if (p.idempotencyKey) {
      const [prior] = await tx
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, p.userId), eq(creditLedger.idempotencyKey, p.idempotencyKey)));
      if (prior) {
        if (prior.kind !== p.kind || prior.amount !== p.amount) {
          throw new DomainError('VALIDATION_FAILED', 409, 'idempotency key already used for a different posting');
        }
        return { entry: prior, balance: row.balance, replayed: true };
      }
    }
    const balance = row.balance + p.amount;
    if (balance < 0) throw new DomainError('INSUFFICIENT_BALANCE', 402, `balance ${row.balance} cannot cover ${-p.amount}`);
    await tx.update(creditBalances).set({ balance, updatedAt: new Date() }).where(eq(creditBalances.userId, p.userId));
    const [entry] = await tx
      .insert(creditLedger)
      .values({
        userId: p.userId,
        kind: p.kind,
        amount: p.amount,
        balanceAfter: balance,
        reason: p.reason,
        orderId: p.orderId ?? null,
        taskId: p.taskId ?? null,
        idempotencyKey: p.idempotencyKey ?? null,
        createdBy: p.createdBy ?? null,
      })
      .returning();
    return { entry: entry!, balance, replayed: false };
  });
}

/** Spends `cost` credits (a positive number) or fails with INSUFFICIENT_BALANCE, moving nothing. */
export function spendCredits(db: Database, userId: string, cost: number, reason: string, ref: { taskId?: string; idempotencyKey?: string } = {}) {
  return postCredits(db, { userId, kind: 'spend', amount: -cost, reason, taskId: ref.taskId ?? null, idempotencyKey: ref.idempotencyKey ?? null });
}

/** Gives back what a failed task spent; its key makes a second refund of the same task a no-op. */
export function refundCredits(db: Database, userId: string, amount: number, reason: string, taskId: string) {
  return postCredits(db, { userId, kind: 'refund', amount, reason, taskId, idempotencyKey: `refund:task:${taskId}` });
}

/** Creates the balance row an account's postings lock. */
export async function openCreditAccount(db: Database, userId: string): Promise<void> {
  await db.insert(creditBalances).values({ userId, balance: 0 }).onConflictDoNothing();
}

export async function balanceOf(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ balance: creditBalances.balance }).from(creditBalances).where(eq(creditBalances.userId, userId));
  return row?.balance ?? 0;
}

/** Newest first; `before` is the id of the last entry of the previous page. */
export async function ledgerPage(db: Database, userId: string, limit: number, before?: string) {
  const where = before
    ? and(eq(creditLedger.userId, userId), lt(creditLedger.id, BigInt(before)))
    : eq(creditLedger.userId, userId);
  const rows = await db.select().from(creditLedger).where(where).orderBy(desc(creditLedger.id)).limit(limit + 1);
  const entries = rows.slice(0, limit);
  return { entries, nextCursor: rows.length > limit ? String(entries.at(-1)!.id) : null };
}
