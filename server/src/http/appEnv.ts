import type { UserRow } from '../db/schema.ts';

export type SessionState =
  | { status: 'valid'; user: UserRow; sessionId: string; expiresAt: Date }
  | { status: 'expired' }
  | { status: 'none' };

/** Who is acting on an admin route: a signed-in admin, or the operator's token. */
export type Actor = { kind: 'admin'; user: UserRow } | { kind: 'operator' };

export interface AppEnv {
  Variables: {
    session: SessionState;
    actor: Actor;
  };
}
