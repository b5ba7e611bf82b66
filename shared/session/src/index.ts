import { createStore, useStore } from 'zustand';
import type { SessionSnapshot } from '@atelier/contract';
import { bus } from '@atelier/events';

export interface SessionUser {
  id: string;
  email: string;
  name?: string | null;
}

export interface SessionState extends SessionSnapshot {
  user: SessionUser | null;
  /** Set once the first session check has answered. */
  checked: boolean;
  login(user: SessionUser, role: 'user' | 'admin', credits: number): void;
  logout(): void;
  /** The server answered 401 for a session we believed valid. */
  expire(): void;
  /** Sets the balance the server reported; emits credits:changed when it moved. */
  setCredits(credits: number, source: string): void;
  /** Re-reads the session from the server through the fetcher given to `configureSession`. */
  refresh(): Promise<void>;
  /** True when logged in; otherwise asks the shell to show the login page and returns false. */
  requireLogin(): boolean;
  /** Ends the session on the server, then here. */
  signOut(): Promise<void>;
}

export interface SessionFetchResult {
  user: SessionUser | null;
  role?: 'user' | 'admin';
  credits?: number;
}

interface SessionTransport {
  fetchSession(): Promise<SessionFetchResult>;
  endSession(): Promise<void>;
}

let transport: SessionTransport | null = null;

/** The shell wires the HTTP calls once; keeping them injectable keeps this package free of fetch. */
export function configureSession(calls: SessionTransport): void {
  transport = calls;
}

function snapshot(s: SessionState): SessionSnapshot {
  return { status: s.status, userId: s.user?.id ?? null, role: s.role, credits: s.credits };
}

export const sessionStore = createStore<SessionState>()((set, get) => {
  const publish = () => bus.emit('session:changed', snapshot(get()));
  return {
    status: 'anonymous',
    userId: null,
    user: null,
    role: null,
    credits: 0,
    checked: false,
    login(user, role, credits) {
      set({ status: 'authenticated', user, userId: user.id, role, credits, checked: true });
      publish();
    },
    logout() {
      set({ status: 'anonymous', user: null, userId: null, role: null, credits: 0, checked: true });
      publish();
    },
    expire() {
      if (get().status !== 'authenticated') return;
      set({ status: 'expired', user: null, userId: null, role: null, credits: 0 });
      bus.emit('session:expired', { reason: 'unauthorized' });
      publish();
    },
    setCredits(credits, source) {
      const delta = credits - get().credits;
      if (delta === 0) return;
      set({ credits });
      bus.emit('credits:changed', { credits, delta, source });
      publish();
    },
    async refresh() {
      if (!transport) throw new Error('configureSession() was not called');
      const r = await transport.fetchSession();
      if (r.user) get().login(r.user, r.role ?? 'user', r.credits ?? 0);
      else if (get().status === 'authenticated') get().expire();
      else set({ checked: true });
    },
    async signOut() {
      if (!transport) throw new Error('configureSession() was not called');
      await transport.endSession();
      get().logout();
    },
    requireLogin() {
      if (get().status === 'authenticated') return true;
      bus.emit('navigate', { to: '/auth/login' });
      return false;
    },
  };
});

/** React hook over the shared store, with an optional selector. */
export function useSession(): SessionState;
export function useSession<T>(selector: (s: SessionState) => T): T;
export function useSession<T>(selector?: (s: SessionState) => T) {
  return useStore(sessionStore, selector ?? ((s) => s as unknown as T));
}
