import { and, desc, eq } from 'drizzle-orm';
import { API_KEY_PREFIX, type ApiKeyStatus } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { apiKeys, users, type ApiKeyRow } from '../db/schema.ts';
import { notFound } from './errors.ts';
import { randomToken, sha256Hex } from './secrets.ts';

/** How fresh "last used" is kept. */
const LAST_USED_PRECISION_MS = 60_000;

/** `atl_` + 43 URL-safe characters (256 bits). */
function newSecret(): string {
  return `${API_KEY_PREFIX}${randomToken(32)}`;
}

/** Enough of the secret to recognise it in a list, not enough to use it. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, API_KEY_PREFIX.length + 4)}…${secret.slice(-4)}`;
}

/** The secret is returned here once and never stored. */
export async function createApiKey(db: Database, userId: string, name?: string | null): Promise<{ key: ApiKeyRow; secret: string }> {
  const secret = newSecret();
  const [key] = await db
    .insert(apiKeys)
    .values({ userId, name: name?.trim() || null, maskedKey: maskSecret(secret), secretHash: sha256Hex(secret) })
    .returning();
  return { key: key!, secret };
}

export function listApiKeys(db: Database, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Scoped to the owner: another user's key id is simply not found. */
export async function setApiKeyStatus(db: Database, userId: string, id: string, status: ApiKeyStatus): Promise<ApiKeyRow> {
  const [key] = await db
    .update(apiKeys)
    .set({ status })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning();
  if (!key) throw notFound('API key');
  return key;
}

export async function deleteApiKey(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (deleted.length === 0) throw notFound('API key');
}

/**
 * The key a business request presents, if it is usable right now: it exists (deleting removes
 * it), is active, and its owner is not disabled. Every check reads the database, so a
 * deactivation takes effect on the very next request. Records the time of use (to the minute).
 */
export async function authenticateApiKey(db: Database, secret: string): Promise<{ keyId: string; userId: string } | null> {
  if (!secret.startsWith(API_KEY_PREFIX)) return null;
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, status: apiKeys.status, lastUsedAt: apiKeys.lastUsedAt, disabledAt: users.disabledAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.secretHash, sha256Hex(secret)));
  if (!row || row.status !== 'active' || row.disabledAt) return null;
  // At most once a minute: a busy key (status polls) would otherwise queue every request on its row's lock.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  return { keyId: row.id, userId: row.userId };
}
