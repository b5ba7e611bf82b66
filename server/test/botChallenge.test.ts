import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { DATABASES } from './support/databases.ts';
import { FakeTurnstile } from './support/fakeTurnstile.ts';
import { call, uniqueEmail } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

const PASSWORD = 'a long enough password';

describe.each(DATABASES)('the bot challenge on %s', (kind) => {
  const turnstile = new FakeTurnstile();
  let server: TestServer;
  let email: string;

  beforeAll(async () => {
    await turnstile.start();
    server = await startTestServer(kind, { botChallenge: { secret: turnstile.secret, verifyUrl: turnstile.url } });
    email = uniqueEmail('human');
    const res = await call(server, '/api/auth/register', { body: { email, password: PASSWORD, botChallengeToken: turnstile.issueToken() } });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await server.close();
    await turnstile.stop();
  });

  const forms = () =>
    [
      ['/api/auth/register', () => ({ email: uniqueEmail('form'), password: PASSWORD }), 201],
      ['/api/auth/login', () => ({ email, password: PASSWORD }), 200],
      ['/api/auth/forgot-password', () => ({ email: uniqueEmail('forgot') }), 202],
    ] as const;

  it.each([0, 1, 2])('refuses form %i without a token, in the caller’s language', async (i) => {
    const [path, body] = forms()[i]!;
    const before = turnstile.requests.length;
    const res = await call(server, path, { body: body(), headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'BOT_CHECK_FAILED', message: 'Wir konnten nicht bestätigen, dass du ein Mensch bist, bitte versuche es erneut', status: 403 });
    // Nothing to verify, so the service is not asked.
    expect(turnstile.requests.length).toBe(before);
  });

  it.each([0, 1, 2])('accepts form %i with a genuine token, verified with the secret and the caller’s address', async (i) => {
    const [path, body, status] = forms()[i]!;
    const token = turnstile.issueToken();
    const res = await call(server, path, { body: { ...body(), botChallengeToken: token }, ip: '198.51.100.23' });
    expect(res.status).toBe(status);
    expect(Object.fromEntries(turnstile.requests.at(-1)!)).toEqual({ secret: turnstile.secret, response: token, remoteip: '198.51.100.23' });
  });

  it('takes the token under the widget’s own field name too', async () => {
    const res = await call(server, '/api/auth/login', { body: { email, password: PASSWORD, 'cf-turnstile-response': turnstile.issueToken() } });
    expect(res.status).toBe(200);
  });

  it('refuses a forged or replayed token', async () => {
    const forged = await call(server, '/api/auth/login', { body: { email, password: PASSWORD, botChallengeToken: 'made-up' } });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('BOT_CHECK_FAILED');
    const token = turnstile.issueToken();
    expect((await call(server, '/api/auth/login', { body: { email, password: PASSWORD, botChallengeToken: token } })).status).toBe(200);
    const replayed = await call(server, '/api/auth/login', { body: { email, password: PASSWORD, botChallengeToken: token } });
    expect(replayed.status).toBe(403);
  });

  it('refuses everyone while the verify service fails', async () => {
    turnstile.failWith = 500;
    try {
      const res = await call(server, '/api/auth/login', { body: { email, password: PASSWORD, botChallengeToken: turnstile.issueToken() } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('BOT_CHECK_FAILED');
    } finally {
      turnstile.failWith = null;
    }
  });

  it('checks the token before the password, so a bot learns nothing about it', async () => {
    const res = await call(server, '/api/auth/login', { body: { email, password: 'wrong password' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('BOT_CHECK_FAILED');
  });

  it('still validates the body first', async () => {
    const res = await call(server, '/api/auth/register', { body: { email: 'nope', password: PASSWORD, botChallengeToken: 'x'.repeat(3000) } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['botChallengeToken', 'email']);
  });
});

describe('bot challenge settings', () => {
  it('requires tokens only with both the site key and the secret', () => {
    expect(loadConfig({}).botChallenge).toBeNull();
    expect(loadConfig({ ATELIER_BOT_CHALLENGE_SITE_KEY: 'site' }).botChallenge).toBeNull();
    expect(loadConfig({ ATELIER_BOT_CHALLENGE_SITE_KEY: 'site', ATELIER_BOT_CHALLENGE_SECRET: 'secret' }).botChallenge).toEqual({
      secret: 'secret',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    });
    expect(
      loadConfig({ ATELIER_BOT_CHALLENGE_SITE_KEY: 'site', ATELIER_BOT_CHALLENGE_SECRET: 'secret', ATELIER_BOT_CHALLENGE_VERIFY_URL: 'http://127.0.0.1:1/v' })
        .botChallenge?.verifyUrl,
    ).toBe('http://127.0.0.1:1/v');
    expect(() => loadConfig({ ATELIER_BOT_CHALLENGE_SECRET: 'secret' })).toThrow(/ATELIER_BOT_CHALLENGE_SITE_KEY is required/);
  });
});
