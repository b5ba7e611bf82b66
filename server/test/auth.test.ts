import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema.ts';
import { outboxMessages, readOutboxMessage } from '../src/mail/mailer.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, uniqueEmail } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('accounts and sessions on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      limits: {
        loginPerIp: { max: 6, windowMs: 60_000 },
        loginPerAccount: { max: 3, windowMs: 60_000 },
        resetPerIp: { max: 50, windowMs: 60_000 },
        resetPerAccount: { max: 2, windowMs: 60_000 },
        registerPerIp: { max: 3, windowMs: 60_000 },
      },
    });
  });
  afterAll(() => server.close());

  it('makes the first account an admin and later ones users, each with the free credits', async () => {
    const first = await signUp(server, 'first');
    const second = await signUp(server, 'second');
    expect(first.role).toBe('admin');
    expect(second.role).toBe('user');
    const session = await call(server, '/api/auth/session', { cookie: second.cookie });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { id: second.id, email: second.email, name: null }, role: 'user', credits: 100 });
  });

  it('sets an httpOnly SameSite=Lax session cookie and stores only its hash', async () => {
    const email = uniqueEmail();
    const res = await server.app.request('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ email, password: 'a long enough password', name: 'Ada' }),
    });
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('atelier_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Expires=/);
    const token = cookie.split(';')[0]!.split('=')[1]!;
    const stored = await server.database.db.select().from(sessions);
    expect(stored.some((s) => s.tokenHash === token)).toBe(false);
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true);
  });

  it('answers a visitor with no user', async () => {
    const res = await call(server, '/api/auth/session');
    expect(res).toMatchObject({ status: 200, body: { user: null } });
  });

  it('treats an unknown cookie as a visitor and clears it', async () => {
    const res = await call(server, '/api/auth/session', { cookie: 'atelier_session=forged' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null });
    expect(res.setCookie).toBe('');
  });

  it('refuses duplicate emails, case-insensitively', async () => {
    const user = await signUp(server);
    const res = await call(server, '/api/auth/register', { body: { email: user.email.toUpperCase(), password: 'another password' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'EMAIL_TAKEN', status: 409 });
  });

  it.each([
    [{ email: 'not-an-email', password: 'long enough pw' }, 'email'],
    [{ email: 'a@example.com', password: 'short' }, 'password'],
    [{ password: 'long enough pw' }, 'email'],
  ])('refuses an invalid registration %#', async (body, path) => {
    const res = await call(server, '/api/auth/register', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toBe('Some of the information you entered is invalid, please check and try again');
    expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('refuses malformed JSON and a missing body', async () => {
    const bad = await call(server, '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const none = await call(server, '/api/auth/login', { method: 'POST' });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('logs in, and out', async () => {
    const user = await signUp(server);
    const login = await call(server, '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email: user.email }, credits: 100 });
    const cookie = `atelier_session=${login.setCookie}`;
    expect((await call(server, '/api/auth/session', { cookie })).body.user.id).toBe(user.id);
    const logout = await call(server, '/api/auth/logout', { method: 'POST', cookie });
    expect(logout).toMatchObject({ status: 200, body: { ok: true }, setCookie: '' });
    expect((await call(server, '/api/auth/session', { cookie })).body).toEqual({ user: null });
  });

  it('refuses a wrong password without saying whether the email exists', async () => {
    const user = await signUp(server);
    const wrong = await call(server, '/api/auth/login', { body: { email: user.email, password: 'wrong password' } });
    const unknown = await call(server, '/api/auth/login', { body: { email: uniqueEmail('nobody'), password: 'wrong password' } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Incorrect email or password', status: 401 });
    }
  });

  it('answers an expired session with 401 SESSION_EXPIRED, once', async () => {
    const user = await signUp(server);
    await server.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const res = await call(server, '/api/auth/session', { cookie: user.cookie, headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'SESSION_EXPIRED', message: 'Deine Sitzung ist abgelaufen, bitte melde dich erneut an', status: 401 });
    expect(res.setCookie).toBe('');
    const keys = await call(server, '/api/api-keys', { cookie: user.cookie });
    expect(keys.status).toBe(401);
    expect(keys.body.error.code).toBe('LOGIN_REQUIRED');
  });

  it('extends a session past half its life', async () => {
    const user = await signUp(server);
    const soon = new Date(Date.now() + 60_000);
    await server.database.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.userId, user.id));
    const res = await call(server, '/api/auth/session', { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(new Date(res.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3600_000);
    expect(res.setCookie).toBe(user.cookie.split('=')[1]);
  });

  it('refuses a disabled account, even with the right password, and ends its sessions', async () => {
    const user = await signUp(server);
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    expect((await call(server, '/api/auth/session', { cookie: user.cookie })).body).toEqual({ user: null });
    const login = await call(server, '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(403);
    expect(login.body.error.code).toBe('ACCOUNT_DISABLED');
  });

  it('limits failed logins per account, refusing even the right password until the window ends', async () => {
    const user = await signUp(server);
    for (let i = 0; i < 3; i++) {
      expect((await call(server, '/api/auth/login', { body: { email: user.email, password: `guess ${i}` } })).status).toBe(401);
    }
    const blocked = await call(server, '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits login attempts per IP across accounts', async () => {
    const ip = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await call(server, '/api/auth/login', { ip, body: { email: uniqueEmail('spray'), password: 'password1' } })).status);
    }
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses[6]).toBe(429);
  });

  it('limits registrations per IP', async () => {
    const ip = '203.0.113.8';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(server, '/api/auth/register', { ip, body: { email: uniqueEmail('bulk'), password: 'long enough pw' } })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('emails a single-use reset link into the outbox and sets the new password with it', async () => {
    const user = await signUp(server);
    const before = outboxMessages(server.services.mailer.outboxDir!).length;
    const res = await call(server, '/api/auth/forgot-password', { body: { email: user.email } });
    expect(res).toMatchObject({ status: 202, body: { ok: true } });
    const mails = outboxMessages(server.services.mailer.outboxDir!);
    expect(mails.length).toBe(before + 1);
    const mail = readOutboxMessage(mails.at(-1)!);
    expect(mail.headers.to).toBe(user.email);
    const token = /http:\/\/localhost\/auth\/update-password\?token=([\w-]+)\n/.exec(mail.text)![1]!;

    const updated = await call(server, '/api/auth/update-password', { body: { token, password: 'my brand new password' } });
    expect(updated.status).toBe(200);
    expect(updated.body.user.id).toBe(user.id);
    expect(updated.setCookie).toBeTruthy();
    // The old session ended with the reset; the old password no longer works; the new one does.
    expect((await call(server, '/api/auth/session', { cookie: user.cookie })).body).toEqual({ user: null });
    expect((await call(server, '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(401);
    expect((await call(server, '/api/auth/login', { body: { email: user.email, password: 'my brand new password' } })).status).toBe(200);
    const again = await call(server, '/api/auth/update-password', { body: { token, password: 'yet another password' } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('RESET_LINK_INVALID');
  });

  it('answers forgot-password the same for unknown emails, and sends nothing', async () => {
    const before = outboxMessages(server.services.mailer.outboxDir!).length;
    const res = await call(server, '/api/auth/forgot-password', { body: { email: uniqueEmail('ghost') } });
    expect(res).toMatchObject({ status: 202, body: { ok: true } });
    expect(outboxMessages(server.services.mailer.outboxDir!).length).toBe(before);
  });

  it('refuses an invalid forgot-password request', async () => {
    const res = await call(server, '/api/auth/forgot-password', { body: { email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('limits forgot-password per account', async () => {
    const user = await signUp(server);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server, '/api/auth/forgot-password', { body: { email: user.email } })).status);
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('changes the password of the signed-in user with the current one', async () => {
    const user = await signUp(server);
    const wrong = await call(server, '/api/auth/update-password', { cookie: user.cookie, body: { currentPassword: 'not it', password: 'new password 1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    const ok = await call(server, '/api/auth/update-password', { cookie: user.cookie, body: { currentPassword: user.password, password: 'new password 1' } });
    expect(ok.status).toBe(200);
    expect(ok.setCookie).toBeTruthy();
    expect((await call(server, '/api/auth/login', { body: { email: user.email, password: 'new password 1' } })).status).toBe(200);
  });

  it('requires a session to change the password without a token', async () => {
    const res = await call(server, '/api/auth/update-password', { body: { currentPassword: 'whatever', password: 'new password 1' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('LOGIN_REQUIRED');
    const both = await call(server, '/api/auth/update-password', { body: { token: 'x'.repeat(20), currentPassword: 'y', password: 'new password 1' } });
    expect(both.status).toBe(400);
  });

  it('refuses cookie-authenticated writes from another origin, or with no origin at all', async () => {
    const user = await signUp(server);
    const foreign = await call(server, '/api/api-keys', { cookie: user.cookie, origin: 'https://evil.example', body: {} });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');
    const missing = await call(server, '/api/api-keys', { cookie: user.cookie, origin: null, body: {} });
    expect(missing.status).toBe(403);
    const own = await call(server, '/api/api-keys', { cookie: user.cookie, body: {} });
    expect(own.status).toBe(201);
    // A login form posted from a foreign page is refused too (login CSRF).
    const login = await call(server, '/api/auth/login', { origin: 'https://evil.example', body: { email: user.email, password: user.password } });
    expect(login.status).toBe(403);
  });

  it('refuses bodies over the size limit', async () => {
    const res = await call(server, '/api/auth/register', { body: { email: uniqueEmail(), password: 'x'.repeat(100_000) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers errors in the language of the language cookie', async () => {
    const res = await call(server, '/api/credits', { headers: { cookie: 'atelier_lang=ja' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'LOGIN_REQUIRED', message: 'ログインしてください', status: 401 });
  });
});
