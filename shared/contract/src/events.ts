import type { Language } from './remote-module.ts';

export interface SessionSnapshot {
  status: 'anonymous' | 'authenticated' | 'expired';
  userId: string | null;
  role: 'user' | 'admin' | null;
  credits: number;
}

export interface ToastEvent {
  kind: 'success' | 'error' | 'info';
  /** Already-translated text. */
  message: string;
  /** Milliseconds; the seed's default is 3000. */
  duration?: number;
}

export interface NotifyEvent {
  kind: 'success' | 'error' | 'info';
  title: string;
  description?: string;
  /** Milliseconds; the seed's default is 4500. */
  duration?: number;
}

/**
 * Every event that crosses a remote boundary. Remotes never import each other; they talk
 * through these events and the shared session store.
 */
export type AtelierEvents = {
  'session:changed': SessionSnapshot;
  'session:expired': { reason: 'unauthorized' | 'timeout' };
  'credits:changed': { credits: number; delta: number; source: string };
  'locale:changed': { language: Language };
  'task:submitted': { taskId: string; kind: 'image' | 'video' | 'music' | 'chat'; source: string };
  'task:completed': { taskId: string; kind: 'image' | 'video' | 'music' | 'chat'; ok: boolean };
  toast: ToastEvent;
  notify: NotifyEvent;
  /** Ask the shell to navigate; `to` has no language prefix, the shell adds the current one. */
  navigate: { to: string; replace?: boolean };
  /** Ask the shell to reopen the cookie-consent choice (the cookies page does). */
  'consent:manage': { source: string };
  /** A page-level error a remote cannot show in place: the shell shows the full error screen. */
  'app:error': { status: number; message?: string };
};
