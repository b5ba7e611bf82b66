import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { sessions, users, type UserRow } from '../db/schema.ts';
import { randomToken, sha256Hex } from './secrets.ts';

export type SessionCheck =
  | { status: 'valid'; user: UserRow; sessionId: string; expiresAt: Date; renewed: { token: string; expiresAt: Date } | null }
  | { status: 'expired' }
  | { status: 'none' };

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** A new session; only the hash of the returned token is stored. */
export async function startSession(db: Database, userId: string, ttlMs: number, meta: SessionMeta = {}) {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256Hex(token),
    expiresAt,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

/**
 * Looks a cookie's token up. An expired session is reported (and removed) as expired, so the user
 * hears "your session has expired" rather than "please log in". Past half its life a session is
 * extended in place, so active users stay signed in; the token itself does not change.
 */
export async function checkSession(db: Database, token: string, ttlMs: number): Promise<SessionCheck> {
  const tokenHash = sha256Hex(token);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash));
  if (!row) return { status: 'none' };
  const now = Date.now();
  if (row.session.expiresAt.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return { status: 'expired' };
  }
  if (row.user.disabledAt) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return { status: 'none' };
  }
  let expiresAt = row.session.expiresAt;
  let renewed: { token: string; expiresAt: Date } | null = null;
  if (expiresAt.getTime() - now < ttlMs / 2) {
    expiresAt = new Date(now + ttlMs);
    await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, row.session.id));
    renewed = { token, expiresAt };
  }
  return { status: 'valid', user: row.user, sessionId: row.session.id, expiresAt, renewed };
}

export async function endSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
}
