import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { creditBalances, sessions, users, type UserRow } from '../db/schema.ts';
import { announce } from './changes.ts';
import { postCredits, openCreditAccount } from './creditsLedger.ts';
import { DomainError, isUniqueViolation, notFound } from './errors.ts';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.ts';

export interface NewAccount {
  email: string;
  /** Null: the account signs in only after setting a password through a reset link. */
  password?: string | null;
  name?: string | null;
  /** 'admin' makes an admin; otherwise the very first account is admin and the rest users. */
  role?: Role;
}

const emailTaken = () => new DomainError('EMAIL_TAKEN', 409, 'an account with this email exists');

/** Creates the account, its credit balance and the welcome grant, all or nothing. */
export async function createAccount(db: Database, input: NewAccount, freeCredits: number): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await db.transaction(async (tx) => {
      // Serialises sign-ups so two first accounts arriving together cannot both become admin.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(7301126022)`);
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (existing) throw emailTaken();
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(users);
      const role: Role = input.role === 'admin' || Number(n) === 0 ? 'admin' : 'user';
      const [user] = await tx.insert(users).values({ email, passwordHash, name: input.name ?? null, role }).returning();
      await openCreditAccount(tx, user!.id);
      if (freeCredits > 0) {
        await postCredits(tx, { userId: user!.id, kind: 'grant', amount: freeCredits, reason: 'Welcome credits', idempotencyKey: 'welcome' });
      }
      return user!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user ?? null;
}

export async function getUser(db: Database, id: string): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw notFound('account');
  return user;
}

/** The account behind an email and password, or INVALID_CREDENTIALS without saying which was wrong. */
export async function checkCredentials(db: Database, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user?.passwordHash) {
    await verifyNothing(password);
    throw new DomainError('INVALID_CREDENTIALS', 401);
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw new DomainError('INVALID_CREDENTIALS', 401);
  // Only someone who knows the password learns that the account is disabled.
  if (user.disabledAt) throw new DomainError('ACCOUNT_DISABLED', 403);
  return user;
}

/** Sets a new password and signs the account out everywhere (a reset may follow a compromise). */
export async function setPassword(db: Database, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
}

export interface UserSearch {
  q?: string | undefined;
  email?: string | undefined;
  limit: number;
  offset: number;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listUsers(db: Database, search: UserSearch) {
  const filters: SQL[] = [];
  if (search.email) filters.push(eq(users.email, search.email.toLowerCase()));
  if (search.q) filters.push(or(ilike(users.email, likePattern(search.q)), ilike(users.name, likePattern(search.q)))!);
  const where = filters.length ? and(...filters) : undefined;
  const rows = await db
    .select({ user: users, credits: creditBalances.balance })
    .from(users)
    .leftJoin(creditBalances, eq(creditBalances.userId, users.id))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(search.limit)
    .offset(search.offset);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
  return { users: rows.map((r) => ({ ...r.user, credits: r.credits ?? 0 })), total: Number(total) };
}

export interface AccountChange {
  role?: Role | undefined;
  disabled?: boolean | undefined;
}

/**
 * Changes role or enabled state. Disabling also ends the account's sessions at once.
 * `actorId` (an admin acting through the dashboard) may not lock themselves out.
 */
export async function changeAccount(db: Database, userId: string, change: AccountChange, actorId: string | null): Promise<UserRow> {
  if (actorId === userId && (change.role === 'user' || change.disabled === true)) {
    throw new DomainError('FORBIDDEN', 403, 'admins cannot demote or disable themselves');
  }
  const changed = await db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({
        ...(change.role ? { role: change.role } : {}),
        // Disabling twice keeps the first time.
        ...(change.disabled === true ? { disabledAt: sql`coalesce(${users.disabledAt}, now())` } : {}),
        ...(change.disabled === false ? { disabledAt: null } : {}),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw notFound('account');
    if (change.disabled === true) await tx.delete(sessions).where(eq(sessions.userId, userId));
    return user;
  });
  // The account's API keys stop (or start again) working with it.
  if (change.disabled !== undefined) announce(db, { kind: 'keys', userId });
  return changed;
}
