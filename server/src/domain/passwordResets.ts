import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { passwordResets } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { setPassword } from './accounts.ts';
import { randomToken, sha256Hex } from './secrets.ts';

/** A single-use token for the emailed link; only its hash is kept. */
export async function issuePasswordReset(db: Database, userId: string, ttlMs: number): Promise<string> {
  const token = randomToken();
  await db.insert(passwordResets).values({ userId, tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** Uses the token (once: the conditional update is atomic) and sets the password. */
export async function completePasswordReset(db: Database, token: string, password: string): Promise<string> {
  const [used] = await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.tokenHash, sha256Hex(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
    .returning({ userId: passwordResets.userId });
  if (!used) throw new DomainError('RESET_LINK_INVALID', 400);
  await setPassword(db, used.userId, password);
  return used.userId;
}
