import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { oauthFlows, oauthIdentities, users } from '../src/db/schema.ts';
import { DATABASES } from './support/databases.ts';
import { FakeOAuthProvider, type FakeAccount } from './support/fakeOAuthProvider.ts';
import { call, signUp, uniqueEmail } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

interface Outcome {
  /** Where the server finally sent the browser: `/auth/callback?...`. */
  location: URL;
  result: Record<string, string>;
  /** `atelier_session=...` when a session was started. */
  cookie: string | null;
}

const setCookies = (res: Response) => new Map(res.headers.getSetCookie().map((c) => [c.split('=')[0]!, c.split(';')[0]!]));

/**
 * A browser signing in: start on our server, follow its redirect to the provider over real HTTP,
 * and bring the provider's redirect back to our callback with the cookie the start set.
 */
async function signInWith(server: TestServer, provider: 'github' | 'google', options: { returnTo?: string; dropStateCookie?: boolean } = {}) {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const start = await server.app.request(`/api/auth/oauth/${provider}/start${query}`);
  expect(start.status).toBe(302);
  const stateCookie = setCookies(start).get('atelier_oauth_state');
  expect(stateCookie).toBeTruthy();
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(`http://localhost/api/auth/oauth/${provider}/callback`);
  const callback = await server.app.request(back.pathname + back.search, {
    headers: options.dropStateCookie ? {} : { cookie: stateCookie! },
  });
  return finish(callback);
}

function finish(callback: Response): Outcome {
  expect(callback.status).toBe(302);
  expect(callback.headers.get('cache-control')).toBe('no-store');
  const location = new URL(callback.headers.get('location')!, 'http://localhost');
  return { location, result: Object.fromEntries(location.searchParams), cookie: setCookies(callback).get('atelier_session') ?? null };
}

function account(overrides: Partial<FakeAccount> = {}): FakeAccount {
  return { id: String(Math.floor(Math.random() * 1e9)), name: 'Ada Lovelace', emails: [{ email: uniqueEmail('oauth'), verified: true }], ...overrides };
}

describe.each(DATABASES)('sign-in with GitHub and Google on %s', (kind) => {
  const github = new FakeOAuthProvider('github');
  const google = new FakeOAuthProvider('oidc');
  let server: TestServer;

  beforeAll(async () => {
    await Promise.all([github.start(), google.start()]);
    server = await startTestServer(kind, {
      oauth: {
        github: { clientId: github.clientId, clientSecret: github.clientSecret, webBase: github.url, apiBase: github.url },
        google: { clientId: google.clientId, clientSecret: google.clientSecret, issuer: google.url },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([github.stop(), google.stop()]);
  });

  it('makes the very first account, created through a provider, an admin with the free credits', async () => {
    google.account = account();
    const { result, cookie, location } = await signInWith(server, 'google');
    expect(location.pathname).toBe('/auth/callback');
    expect(result).toEqual({ status: 'ok', provider: 'google' });
    const session = await call(server, '/api/auth/session', { cookie });
    expect(session.body).toMatchObject({ user: { email: google.account.emails[0]!.email, name: 'Ada Lovelace' }, role: 'admin', credits: 100 });
  });

  it('lists the configured providers', async () => {
    const res = await call(server, '/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      providers: [
        { id: 'google', name: 'Google', startUrl: '/api/auth/oauth/google/start' },
        { id: 'github', name: 'GitHub', startUrl: '/api/auth/oauth/github/start' },
      ],
    });
  });

  it('sends the browser to GitHub with state and a PKCE challenge, the state bound to an httpOnly cookie', async () => {
    const start = await server.app.request('/api/auth/oauth/github/start');
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: github.clientId,
      redirect_uri: 'http://localhost/api/auth/oauth/github/callback',
      response_type: 'code',
      scope: 'read:user user:email',
      code_challenge_method: 'S256',
    });
    expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith('atelier_oauth_state='))!;
    expect(cookie.split(';')[0]).toBe(`atelier_oauth_state=${to.searchParams.get('state')}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/auth\/oauth/);
    // Only the state's hash is stored.
    const flows = await server.database.db.select().from(oauthFlows);
    expect(flows.some((f) => f.stateHash === to.searchParams.get('state'))).toBe(false);
  });

  it('asks Google for openid email profile with a nonce', async () => {
    const start = await server.app.request('/api/auth/oauth/google/start');
    const to = new URL(start.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(`${google.url}/o/oauth2/v2/auth`);
    expect(to.searchParams.get('scope')).toBe('openid email profile');
    expect(to.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('creates an account from a GitHub identity with its primary verified email, and finds it again by identity', async () => {
    const person = account({ login: 'octo', name: '', emails: [{ email: uniqueEmail('primary'), verified: true }, { email: uniqueEmail('other'), verified: true }] });
    github.account = person;
    const first = await signInWith(server, 'github');
    expect(first.result).toEqual({ status: 'ok', provider: 'github' });
    const me = (await call(server, '/api/auth/session', { cookie: first.cookie })).body;
    expect(me).toMatchObject({ user: { email: person.emails[0]!.email, name: 'octo' }, role: 'user', credits: 100 });
    // The code was exchanged with the verifier whose challenge went to the provider.
    expect(github.tokenRequests.at(-1)!.get('code_verifier')).toMatch(/^[\w-]{43}$/);

    // The email changes at GitHub; the identity still leads to the same account.
    github.account = { ...person, emails: [{ email: uniqueEmail('changed'), verified: true }] };
    const again = await signInWith(server, 'github');
    expect((await call(server, '/api/auth/session', { cookie: again.cookie })).body.user.id).toBe(me.user.id);
    const links = await server.database.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, me.user.id));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ provider: 'github', subject: person.id });
  });

  it('links a provider identity to the existing account with the same verified email', async () => {
    const user = await signUp(server, 'has-password');
    github.account = account({ emails: [{ email: user.email.toUpperCase(), verified: true }] });
    const { result, cookie } = await signInWith(server, 'github');
    expect(result.status).toBe('ok');
    const me = (await call(server, '/api/auth/session', { cookie })).body;
    expect(me.user.id).toBe(user.id);
    expect(me.credits).toBe(100); // no second welcome grant
    // The password keeps working beside the provider.
    expect((await call(server, '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  });

  it('links nothing and creates nothing without a verified email', async () => {
    const victim = await signUp(server, 'victim');
    github.account = account({ emails: [{ email: victim.email, verified: false }] });
    const { result, cookie } = await signInWith(server, 'github');
    expect(result).toEqual({ status: 'error', provider: 'github', code: 'OAUTH_EMAIL_UNVERIFIED' });
    expect(cookie).toBeNull();
    const links = await server.database.db.select().from(oauthIdentities).where(eq(oauthIdentities.subject, github.account.id));
    expect(links).toHaveLength(0);

    google.account = account({ emails: [{ email: uniqueEmail('unverified'), verified: false }] });
    const viaGoogle = await signInWith(server, 'google');
    expect(viaGoogle.result.code).toBe('OAUTH_EMAIL_UNVERIFIED');
    expect(await server.database.db.select().from(users).where(eq(users.email, google.account.emails[0]!.email))).toHaveLength(0);
  });

  it('says the sign-in was cancelled when the person declines at the provider', async () => {
    github.account = null;
    const { result, cookie } = await signInWith(server, 'github');
    expect(result).toEqual({ status: 'error', provider: 'github', code: 'OAUTH_CANCELLED' });
    expect(cookie).toBeNull();
  });

  it('refuses a callback in a browser that did not start the sign-in, without exchanging the code', async () => {
    github.account = account();
    const before = github.tokenRequests.length;
    const { result, cookie } = await signInWith(server, 'github', { dropStateCookie: true });
    expect(result).toEqual({ status: 'error', provider: 'github', code: 'OAUTH_FAILED' });
    expect(cookie).toBeNull();
    expect(github.tokenRequests.length).toBe(before);
  });

  it('uses a sign-in once: replaying the callback fails', async () => {
    github.account = account();
    const start = await server.app.request('/api/auth/oauth/github/start');
    const stateCookie = setCookies(start).get('atelier_oauth_state')!;
    const back = new URL((await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
    const first = finish(await server.app.request(back.pathname + back.search, { headers: { cookie: stateCookie } }));
    expect(first.result.status).toBe('ok');
    const replay = finish(await server.app.request(back.pathname + back.search, { headers: { cookie: stateCookie } }));
    expect(replay.result).toEqual({ status: 'error', provider: 'github', code: 'OAUTH_FAILED' });
    expect(replay.cookie).toBeNull();
  });

  it('refuses an expired sign-in', async () => {
    github.account = account();
    const start = await server.app.request('/api/auth/oauth/github/start');
    const stateCookie = setCookies(start).get('atelier_oauth_state')!;
    await server.database.db.update(oauthFlows).set({ expiresAt: new Date(Date.now() - 1000) });
    const back = new URL((await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
    const outcome = finish(await server.app.request(back.pathname + back.search, { headers: { cookie: stateCookie } }));
    expect(outcome.result.code).toBe('OAUTH_FAILED');
  });

  it.each([
    ['wrong-nonce'],
    ['wrong-audience'],
    ['expired'],
    ['wrong-issuer'],
    ['foreign-key'],
  ] as const)('refuses a Google ID token with a %s', async (fault) => {
    google.account = account();
    google.nextIdTokenFault = fault;
    const { result, cookie } = await signInWith(server, 'google');
    expect(result).toEqual({ status: 'error', provider: 'google', code: 'OAUTH_FAILED' });
    expect(cookie).toBeNull();
    expect(await server.database.db.select().from(users).where(eq(users.email, google.account.emails[0]!.email))).toHaveLength(0);
  });

  it('refuses a disabled account', async () => {
    const user = await signUp(server, 'disabled');
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    google.account = account({ emails: [{ email: user.email, verified: true }] });
    const { result, cookie } = await signInWith(server, 'google');
    expect(result.code).toBe('ACCOUNT_DISABLED');
    expect(cookie).toBeNull();
  });

  it('brings the browser back under the language of returnTo, with returnTo', async () => {
    github.account = account();
    const { location, result } = await signInWith(server, 'github', { returnTo: '/ja/dashboard/image' });
    expect(location.pathname).toBe('/ja/auth/callback');
    expect(result).toEqual({ status: 'ok', provider: 'github', returnTo: '/ja/dashboard/image' });
  });

  it.each(['//evil.example/x', 'https://evil.example', '/\\evil.example', 'dashboard'])('refuses returnTo %s', async (returnTo) => {
    const res = await call(server, `/api/auth/oauth/github/start?returnTo=${encodeURIComponent(returnTo)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers an unknown provider with a validation error', async () => {
    const res = await call(server, '/api/auth/oauth/facebook/start');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('sign-in providers that are not configured or not reachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A port nothing listens on: the discovery request fails.
    server = await startTestServer('pglite', {
      oauth: { github: null, google: { clientId: 'id', clientSecret: 'secret', issuer: 'http://127.0.0.1:9' } },
    });
  });
  afterAll(() => server.close());

  it('lists only what is configured, and 404s the others', async () => {
    expect((await call(server, '/api/auth/providers')).body.providers.map((p: { id: string }) => p.id)).toEqual(['google']);
    const res = await call(server, '/api/auth/oauth/github/start');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const callback = finish(await server.app.request('/api/auth/oauth/github/callback?code=x&state=y'));
    expect(callback.result).toEqual({ status: 'error', provider: 'github', code: 'OAUTH_FAILED' });
  });

  it('sends the browser to the callback page with OAUTH_FAILED when the provider cannot be reached', async () => {
    const outcome = finish(await server.app.request('/api/auth/oauth/google/start?returnTo=%2Fde%2Fauth%2Flogin'));
    expect(outcome.location.pathname).toBe('/de/auth/callback');
    expect(outcome.result).toEqual({ status: 'error', provider: 'google', code: 'OAUTH_FAILED', returnTo: '/de/auth/login' });
  });
});

describe('provider settings', () => {
  const base = { ATELIER_PRICING_FILE: undefined };
  it('reads client credentials and base URLs from the environment', () => {
    const config = loadConfig({
      ...base,
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET: 'ghs',
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 'gs',
      GOOGLE_OAUTH_ISSUER: 'http://127.0.0.1:4000',
    });
    expect(config.oauth).toEqual({
      github: { clientId: 'gh', clientSecret: 'ghs', webBase: 'https://github.com', apiBase: 'https://api.github.com' },
      google: { clientId: 'g', clientSecret: 'gs', issuer: 'http://127.0.0.1:4000' },
    });
    expect(loadConfig(base).oauth).toEqual({ github: null, google: null });
  });

  it('refuses half a set of credentials', () => {
    expect(() => loadConfig({ ...base, GITHUB_CLIENT_ID: 'gh' })).toThrow(/GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ ...base, GOOGLE_CLIENT_SECRET: 'x' })).toThrow(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
  });
});
