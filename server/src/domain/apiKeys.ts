import { and, desc, eq } from 'drizzle-orm';
import { API_KEY_PREFIX, type ApiKeyStatus } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { apiKeys, users, type ApiKeyRow } from '../db/schema.ts';
import { announce, ReadThroughCache } from './changes.ts';
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
  announce(db, { kind: 'keys', userId });
  return key;
}

export async function deleteApiKey(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (deleted.length === 0) throw notFound('API key');
  announce(db, { kind: 'keys', userId });
}

interface KeyState {
  keyId: string;
  userId: string;
  usable: boolean;
  lastUsedAt: number;
}

async function keyState(db: Database, secretHash: string): Promise<KeyState | undefined> {
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, status: apiKeys.status, lastUsedAt: apiKeys.lastUsedAt, disabledAt: users.disabledAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.secretHash, secretHash));
  if (!row) return undefined;
  return { keyId: row.id, userId: row.userId, usable: row.status === 'active' && !row.disabledAt, lastUsedAt: row.lastUsedAt?.getTime() ?? 0 };
}

export type ApiKeyAuthenticator = (secret: string) => Promise<{ keyId: string; userId: string } | null>;

/**
 * Tells which key a business request presents, if it is usable right now: it exists (deleting
 * removes it), is active, and its owner is not disabled. Answers are cached by secret hash and
 * dropped by every change that could alter them (`setApiKeyStatus`, `deleteApiKey`, an owner
 * disabled), announced before those return: a deactivation takes effect on the very next request.
 * Unknown secrets are not cached. Records the time of use, to the minute.
 */
export function apiKeyAuthenticator(db: Database, options: { maxAgeMs: number }): ApiKeyAuthenticator {
  const cache = new ReadThroughCache<KeyState>(db, {
    maxAgeMs: options.maxAgeMs,
    stale: (change) => (change.kind === 'keys' ? (key) => key.userId === change.userId : null),
  });
  return async (secret) => {
    if (!secret.startsWith(API_KEY_PREFIX)) return null;
    const hash = sha256Hex(secret);
    const key = await cache.get(hash, () => keyState(db, hash));
    if (!key?.usable) return null;
    const now = Date.now();
    // One request a minute per key writes it; the others find it fresh.
    if (now - key.lastUsedAt > LAST_USED_PRECISION_MS) {
      key.lastUsedAt = now;
      await db.update(apiKeys).set({ lastUsedAt: new Date(now) }).where(eq(apiKeys.id, key.keyId));
    }
    return { keyId: key.keyId, userId: key.userId };
  };
}
