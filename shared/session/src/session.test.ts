import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bus } from '@atelier/events';
import { configureSession, sessionStore } from './index.ts';

const user = { id: 'u1', email: 'ada@example.com' };

beforeEach(() => {
  sessionStore.getState().logout();
  bus.all.clear();
});

describe('session store', () => {
  it('publishes session:changed on login and logout', () => {
    const seen = vi.fn();
    bus.on('session:changed', seen);
    sessionStore.getState().login(user, 'admin', 50);
    sessionStore.getState().logout();
    expect(seen.mock.calls.map(([s]) => s)).toEqual([
      { status: 'authenticated', userId: 'u1', role: 'admin', credits: 50 },
      { status: 'anonymous', userId: null, role: null, credits: 0 },
    ]);
  });

  it('emits credits:changed with the delta, and nothing when unchanged', () => {
    sessionStore.getState().login(user, 'user', 10);
    const seen = vi.fn();
    bus.on('credits:changed', seen);
    sessionStore.getState().setCredits(7, 'image');
    sessionStore.getState().setCredits(7, 'image');
    expect(seen).toHaveBeenCalledExactlyOnceWith({ credits: 7, delta: -3, source: 'image' });
  });

  it('expires an authenticated session once, announcing it', () => {
    const expired = vi.fn();
    bus.on('session:expired', expired);
    sessionStore.getState().expire();
    expect(expired).not.toHaveBeenCalled();
    sessionStore.getState().login(user, 'user', 1);
    sessionStore.getState().expire();
    sessionStore.getState().expire();
    expect(sessionStore.getState().status).toBe('expired');
    expect(expired).toHaveBeenCalledOnce();
  });

  it('requireLogin asks the shell for the login page when anonymous', () => {
    const nav = vi.fn();
    bus.on('navigate', nav);
    expect(sessionStore.getState().requireLogin()).toBe(false);
    expect(nav).toHaveBeenCalledWith({ to: '/auth/login' });
    sessionStore.getState().login(user, 'user', 0);
    expect(sessionStore.getState().requireLogin()).toBe(true);
  });

  it('refresh reads the server session through the configured fetcher', async () => {
    configureSession({ fetchSession: async () => ({ user, role: 'user', credits: 42 }), endSession: async () => undefined });
    await sessionStore.getState().refresh();
    expect(sessionStore.getState()).toMatchObject({ status: 'authenticated', credits: 42, checked: true });
    configureSession({ fetchSession: async () => ({ user: null }), endSession: async () => undefined });
    await sessionStore.getState().refresh();
    expect(sessionStore.getState().status).toBe('expired');
  });

  it('signOut ends the session on the server first, then locally', async () => {
    const calls: string[] = [];
    configureSession({ fetchSession: async () => ({ user: null }), endSession: async () => void calls.push('server') });
    sessionStore.getState().login(user, 'user', 5);
    bus.on('session:changed', () => calls.push('changed'));
    await sessionStore.getState().signOut();
    expect(calls).toEqual(['server', 'changed']);
    expect(sessionStore.getState().status).toBe('anonymous');
  });
});
