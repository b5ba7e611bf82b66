/**
 * The account side of signing in with a provider: sign-ins in progress, and which Atelier account
 * a provider identity belongs to.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { OAuthProviderId } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { oauthFlows, oauthIdentities, users, type UserRow } from '../db/schema.ts';
import { createAccount, findUserByEmail } from './accounts.ts';
import { DomainError } from './errors.ts';
import { newFlowSecrets, type FlowSecrets, type ProviderIdentity } from './oauthProviders.ts';
import { sha256Hex } from './secrets.ts';

/** Long enough to choose an account and approve; short enough that a stale tab cannot finish. */
export const OAUTH_FLOW_TTL_MS = 10 * 60_000;

export interface OAuthFlow extends FlowSecrets {
  provider: OAuthProviderId;
  returnTo: string | null;
}

/** Records a new sign-in; only the state's hash is the key, the state itself goes to the browser. */
export async function beginOAuthFlow(db: Database, provider: OAuthProviderId, returnTo: string | null): Promise<OAuthFlow> {
  const secrets = newFlowSecrets();
  // Abandoned sign-ins are swept here rather than by a timer.
  await db.delete(oauthFlows).where(lt(oauthFlows.expiresAt, new Date()));
  await db.insert(oauthFlows).values({
    stateHash: sha256Hex(secrets.state),
    provider,
    codeVerifier: secrets.codeVerifier,
    nonce: secrets.nonce,
    returnTo,
    expiresAt: new Date(Date.now() + OAUTH_FLOW_TTL_MS),
  });
  return { ...secrets, provider, returnTo };
}

/** The sign-in this state started, used up (a state works once); null when unknown or expired. */
export async function takeOAuthFlow(db: Database, provider: OAuthProviderId, state: string): Promise<OAuthFlow | null> {
  const [row] = await db.delete(oauthFlows).where(eq(oauthFlows.stateHash, sha256Hex(state))).returning();
  if (!row || row.provider !== provider || row.expiresAt.getTime() <= Date.now()) return null;
  return { state, codeVerifier: row.codeVerifier, nonce: row.nonce, provider: row.provider, returnTo: row.returnTo };
}

export interface OAuthAccount {
  user: UserRow;
  /** A new account was made for this sign-in (first-admin rule and free credits applied). */
  created: boolean;
}

async function linkedAccount(db: Database, identity: ProviderIdentity): Promise<UserRow | null> {
  const [row] = await db
    .select({ user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(and(eq(oauthIdentities.provider, identity.provider), eq(oauthIdentities.subject, identity.subject)));
  return row?.user ?? null;
}

function refuseDisabled(user: UserRow): UserRow {
  if (user.disabledAt) throw new DomainError('ACCOUNT_DISABLED', 403);
  return user;
}

/**
 * The account a provider identity signs into: the one already linked to it; else the account with
 * the identity's verified email, now linked; else a new account. Without a verified email nothing
 * is linked or created: an unverified address would let anyone claim someone else's account.
 */
export async function accountForIdentity(db: Database, identity: ProviderIdentity, freeCredits: number): Promise<OAuthAccount> {
  const linked = await linkedAccount(db, identity);
  if (linked) {
    await db
      .update(oauthIdentities)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(oauthIdentities.provider, identity.provider), eq(oauthIdentities.subject, identity.subject)));
    return { user: refuseDisabled(linked), created: false };
  }
  if (!identity.email) throw new DomainError('OAUTH_EMAIL_UNVERIFIED', 403, `${identity.provider} reported no verified email`);

  let user = await findUserByEmail(db, identity.email);
  let created = false;
  if (!user) {
    try {
      user = await createAccount(db, { email: identity.email, password: null, name: identity.name?.slice(0, 80) || null }, freeCredits);
      created = true;
    } catch (err) {
      // Another sign-in with the same email made the account a moment ago: use it.
      if (!(err instanceof DomainError && err.code === 'EMAIL_TAKEN')) throw err;
      user = await findUserByEmail(db, identity.email);
      if (!user) throw err;
    }
  }
  refuseDisabled(user);
  await db
    .insert(oauthIdentities)
    .values({ provider: identity.provider, subject: identity.subject, userId: user.id, email: identity.email.toLowerCase(), lastUsedAt: new Date() })
    .onConflictDoNothing();
  // Two first sign-ins of one identity racing: the link that was written wins for both.
  const winner = await linkedAccount(db, identity);
  if (!winner) throw new Error('the identity link vanished');
  return { user: refuseDisabled(winner), created: created && winner.id === user.id };
}
