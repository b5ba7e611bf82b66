import type { SessionResponse } from '@atelier/api/schemas';
import { sessionStore } from '@atelier/session';

/** Puts what the server answered about the session into the shared store. */
export function applySession(s: SessionResponse): void {
  if (s.user) sessionStore.getState().login(s.user, s.role ?? 'user', s.credits ?? 0);
  else sessionStore.getState().logout();
}
