import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/domain/accounts.ts';
import { balanceOf, postCredits, refundCredits, spendCredits } from '../src/domain/creditsLedger.ts';
import { DomainError } from '../src/domain/errors.ts';
import { creditLedger } from '../src/db/schema.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, uniqueEmail } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('credits ledger on %s', (kind) => {
  let server: TestServer;
  const db = () => server.database.db;
  const newAccount = (credits = 100) => createAccount(db(), { email: uniqueEmail('ledger') }, credits);

  /** The ledger replayed in id order: every entry's balance_after is the running sum, never below zero. */
  async function auditLedger(userId: string) {
    const entries = await db().select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(asc(creditLedger.id));
    let running = 0;
    let lowest = Infinity;
    for (const e of entries) {
      running += e.amount;
      expect(e.balanceAfter).toBe(running);
      lowest = Math.min(lowest, running);
    }
    return { entries, sum: running, lowest };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('grants the configured free credits to a new account, once', async () => {
    const user = await newAccount(250);
    expect(await balanceOf(db(), user.id)).toBe(250);
    const { entries } = await auditLedger(user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'grant', amount: 250, reason: 'Welcome credits' });
    const none = await newAccount(0);
    expect(await balanceOf(db(), none.id)).toBe(0);
  });

  it('spends, refuses to go below zero, and leaves the balance untouched when refused', async () => {
    const user = await newAccount(10);
    const spent = await spendCredits(db(), user.id, 7, 'Image', { taskId: 'task-1' });
    expect(spent).toMatchObject({ balance: 3, replayed: false, entry: { kind: 'spend', amount: -7, taskId: 'task-1', balanceAfter: 3 } });
    await expect(spendCredits(db(), user.id, 4, 'Video')).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 402 });
    expect(await balanceOf(db(), user.id)).toBe(3);
    expect((await auditLedger(user.id)).entries).toHaveLength(2);
  });

  it('spends once per idempotency key', async () => {
    const user = await newAccount(10);
    const first = await spendCredits(db(), user.id, 4, 'Image', { idempotencyKey: 'req-1' });
    const retry = await spendCredits(db(), user.id, 4, 'Image', { idempotencyKey: 'req-1' });
    expect(retry.replayed).toBe(true);
    expect(retry.entry.id).toBe(first.entry.id);
    expect(await balanceOf(db(), user.id)).toBe(6);
    await expect(spendCredits(db(), user.id, 5, 'Image', { idempotencyKey: 'req-1' })).rejects.toMatchObject({ status: 409 });
  });

  it('refunds a task exactly once', async () => {
    const user = await newAccount(10);
    await spendCredits(db(), user.id, 6, 'Video', { taskId: 'video-9' });
    await refundCredits(db(), user.id, 6, 'Video failed', 'video-9');
    const again = await refundCredits(db(), user.id, 6, 'Video failed', 'video-9');
    expect(again.replayed).toBe(true);
    expect(await balanceOf(db(), user.id)).toBe(10);
  });

  it('checks the sign of each kind', async () => {
    const user = await newAccount(10);
    await expect(postCredits(db(), { userId: user.id, kind: 'spend', amount: 5, reason: 'x' })).rejects.toBeInstanceOf(DomainError);
    await expect(postCredits(db(), { userId: user.id, kind: 'grant', amount: -5, reason: 'x' })).rejects.toBeInstanceOf(DomainError);
    await expect(postCredits(db(), { userId: user.id, kind: 'adjustment', amount: 0, reason: 'x' })).rejects.toBeInstanceOf(DomainError);
    await expect(postCredits(db(), { userId: user.id, kind: 'adjustment', amount: 1.5, reason: 'x' })).rejects.toBeInstanceOf(DomainError);
    const down = await postCredits(db(), { userId: user.id, kind: 'adjustment', amount: -10, reason: 'correction' });
    expect(down.balance).toBe(0);
  });

  it('keeps the ledger append-only in the database itself', async () => {
    const user = await newAccount(10);
    await expect(db().update(creditLedger).set({ amount: 1000 }).where(eq(creditLedger.userId, user.id))).rejects.toThrow();
    await expect(db().delete(creditLedger).where(eq(creditLedger.userId, user.id))).rejects.toThrow();
    await expect(db().execute(sql`UPDATE credit_balances SET balance = -1 WHERE user_id = ${user.id}`)).rejects.toThrow();
    expect(await balanceOf(db(), user.id)).toBe(10);
  });

  it('200 simultaneous spends end with the exact balance and never a negative moment', async () => {
    const user = await newAccount(150);
    // 200 requests of 1 credit; every fourth is a retry of the one before (same idempotency key).
    const keys = Array.from({ length: 200 }, (_, i) => `spend-${i % 4 === 3 ? i - 1 : i}`);
    const distinct = new Set(keys).size; // 150
    const results = await Promise.allSettled(keys.map((key) => spendCredits(db(), user.id, 1, 'Image', { idempotencyKey: key })));
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures.map((f) => (f as PromiseRejectedResult).reason.code).filter((c) => c !== 'INSUFFICIENT_BALANCE')).toEqual([]);
    const applied = results.filter((r) => r.status === 'fulfilled' && !r.value.replayed).length;
    expect(applied).toBe(distinct);
    expect(await balanceOf(db(), user.id)).toBe(0);
    const audit = await auditLedger(user.id);
    expect(audit.sum).toBe(0);
    expect(audit.lowest).toBeGreaterThanOrEqual(0);
    expect(audit.entries.filter((e) => e.kind === 'spend')).toHaveLength(distinct);
  }, 30_000);

  it('200 simultaneous spends past the balance: exactly what the balance covers succeeds', async () => {
    const user = await newAccount(100);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => spendCredits(db(), user.id, 1 + (i % 3), 'Chat', { idempotencyKey: `burst-${i}` })),
    );
    const spent = results.reduce((sum, r, i) => (r.status === 'fulfilled' ? sum + 1 + (i % 3) : sum), 0);
    const balance = await balanceOf(db(), user.id);
    expect(balance).toBe(100 - spent);
    expect(balance).toBeGreaterThanOrEqual(0);
    // Whatever is left is too little for the cheapest request that was refused.
    const refusedCosts = results.flatMap((r, i) => (r.status === 'rejected' ? [1 + (i % 3)] : []));
    expect(refusedCosts.length).toBeGreaterThan(0);
    expect(balance).toBeLessThan(Math.min(...refusedCosts));
    const audit = await auditLedger(user.id);
    expect(audit.sum).toBe(balance);
    expect(audit.lowest).toBeGreaterThanOrEqual(0);
  }, 30_000);

  describe('routes', () => {
    it('shows the balance and the history, newest first, page by page', async () => {
      await signUp(server, 'first');
      const user = await signUp(server);
      for (let i = 1; i <= 3; i++) await spendCredits(db(), user.id, i, `Image ${i}`, { taskId: `t${i}` });
      const balance = await call(server, '/api/credits', { cookie: user.cookie });
      expect(balance).toMatchObject({ status: 200, body: { balance: 94 } });
      const page1 = await call(server, '/api/credits/ledger?limit=2', { cookie: user.cookie });
      expect(page1.status).toBe(200);
      expect(page1.body.entries.map((e: { amount: number }) => e.amount)).toEqual([-3, -2]);
      expect(page1.body.entries[0]).toMatchObject({ kind: 'spend', balanceAfter: 94, reason: 'Image 3', taskId: 't3', orderId: null });
      const page2 = await call(server, `/api/credits/ledger?limit=2&before=${page1.body.nextCursor}`, { cookie: user.cookie });
      expect(page2.body.entries.map((e: { amount: number }) => e.amount)).toEqual([-1, 100]);
      expect(page2.body.nextCursor).toBeNull();
    });

    it('refuses bad paging input', async () => {
      const user = await signUp(server);
      for (const q of ['limit=0', 'limit=101', 'limit=abc', 'before=1%20OR%201=1']) {
        const res = await call(server, `/api/credits/ledger?${q}`, { cookie: user.cookie });
        expect(res.status, q).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_FAILED');
      }
    });

    it('shows only the caller’s own credits', async () => {
      const alice = await signUp(server, 'alice');
      const bob = await signUp(server, 'bob');
      await spendCredits(db(), alice.id, 40, 'Alice spends');
      expect((await call(server, '/api/credits', { cookie: bob.cookie })).body.balance).toBe(100);
      const bobs = await call(server, '/api/credits/ledger', { cookie: bob.cookie });
      expect(bobs.body.entries.map((e: { reason: string }) => e.reason)).toEqual(['Welcome credits']);
      // Paging with a cursor taken from someone else's history reveals nothing of theirs.
      const alices = await call(server, '/api/credits/ledger', { cookie: alice.cookie });
      const probe = await call(server, `/api/credits/ledger?before=${Number(alices.body.entries[0].id) + 1}`, { cookie: bob.cookie });
      expect(probe.body.entries.every((e: { reason: string }) => e.reason === 'Welcome credits')).toBe(true);
    });

    it('requires a session', async () => {
      for (const path of ['/api/credits', '/api/credits/ledger']) {
        const res = await call(server, path);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('LOGIN_REQUIRED');
      }
    });
  });
});
