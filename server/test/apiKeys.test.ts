import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '../src/db/schema.ts';
import { handleApiError } from '../src/http/apiErrors.ts';
import { apiKeyAuth, type ApiKeyEnv } from '../src/http/apiKeyAuth.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('API keys on %s', (kind) => {
  let server: TestServer;
  let alice: SignedIn;
  let bob: SignedIn;
  /** A stand-in for the coming /v1 business API, behind the real key middleware. */
  let business: Hono<ApiKeyEnv>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await signUp(server, 'admin');
    alice = await signUp(server, 'alice');
    bob = await signUp(server, 'bob');
    business = new Hono<ApiKeyEnv>();
    business.onError(handleApiError);
    business.use('/v1/*', apiKeyAuth(server.services));
    business.get('/v1/whoami', (c) => c.json(c.get('apiKey')));
  });
  afterAll(() => server.close());

  const useKey = (secret: string) => business.request('/v1/whoami', { headers: { authorization: `Bearer ${secret}` } });

  it('creates a key, shows the secret once and stores only its hash', async () => {
    const res = await call(server, '/api/api-keys', { cookie: alice.cookie, body: { name: 'CI pipeline' } });
    expect(res.status).toBe(201);
    const { key, secret } = res.body;
    expect(secret).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({ name: 'CI pipeline', status: 'active', lastUsedAt: null });
    expect(key.maskedKey).toBe(`${secret.slice(0, 8)}…${secret.slice(-4)}`);
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    const list = await call(server, '/api/api-keys', { cookie: alice.cookie });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.keys.find((k: { id: string }) => k.id === key.id)).toEqual(key);
  });

  it('creates an unnamed key when no name is given', async () => {
    const res = await call(server, '/api/api-keys', { cookie: alice.cookie, body: {} });
    expect(res.status).toBe(201);
    expect(res.body.key.name).toBeNull();
    const blank = await call(server, '/api/api-keys', { cookie: alice.cookie, body: { name: '   ' } });
    expect(blank.body.key.name).toBeNull();
  });

  it('refuses invalid input', async () => {
    const long = await call(server, '/api/api-keys', { cookie: alice.cookie, body: { name: 'x'.repeat(65) } });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_FAILED');
    const { body } = await call(server, '/api/api-keys', { cookie: alice.cookie, body: {} });
    const status = await call(server, `/api/api-keys/${body.key.id}`, { method: 'PATCH', cookie: alice.cookie, body: { status: 'paused' } });
    expect(status.status).toBe(400);
    const badId = await call(server, '/api/api-keys/not-a-uuid', { method: 'DELETE', cookie: alice.cookie });
    expect(badId.status).toBe(400);
  });

  it('requires a session for every key route', async () => {
    const id = crypto.randomUUID();
    for (const [method, path, body] of [
      ['GET', '/api/api-keys', undefined],
      ['POST', '/api/api-keys', {}],
      ['PATCH', `/api/api-keys/${id}`, { status: 'inactive' }],
      ['DELETE', `/api/api-keys/${id}`, undefined],
    ] as const) {
      const res = await call(server, path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code).toBe('LOGIN_REQUIRED');
    }
  });

  it('never shows, changes or deletes another user’s key', async () => {
    const { body } = await call(server, '/api/api-keys', { cookie: alice.cookie, body: { name: 'alice only' } });
    const id = body.key.id;
    const bobsList = await call(server, '/api/api-keys', { cookie: bob.cookie });
    expect(bobsList.body.keys.map((k: { id: string }) => k.id)).not.toContain(id);
    const patch = await call(server, `/api/api-keys/${id}`, { method: 'PATCH', cookie: bob.cookie, body: { status: 'inactive' } });
    expect(patch.status).toBe(404);
    expect(patch.body.error.code).toBe('NOT_FOUND');
    const del = await call(server, `/api/api-keys/${id}`, { method: 'DELETE', cookie: bob.cookie });
    expect(del.status).toBe(404);
    const still = await call(server, '/api/api-keys', { cookie: alice.cookie });
    expect(still.body.keys.find((k: { id: string }) => k.id === id)).toMatchObject({ status: 'active' });
  });

  it('lets an active key through the business API and records when it was used', async () => {
    const { body } = await call(server, '/api/api-keys', { cookie: alice.cookie, body: { name: 'used' } });
    const res = await useKey(body.secret);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ keyId: body.key.id, userId: alice.id });
    const list = await call(server, '/api/api-keys', { cookie: alice.cookie });
    const listed = list.body.keys.find((k: { id: string }) => k.id === body.key.id);
    expect(Date.now() - new Date(listed.lastUsedAt).getTime()).toBeLessThan(60_000);
  });

  it('refuses a deactivated key at once, and accepts it again when reactivated', async () => {
    const { body } = await call(server, '/api/api-keys', { cookie: alice.cookie, body: {} });
    const off = await call(server, `/api/api-keys/${body.key.id}`, { method: 'PATCH', cookie: alice.cookie, body: { status: 'inactive' } });
    expect(off).toMatchObject({ status: 200, body: { id: body.key.id, status: 'inactive' } });
    const refused = await useKey(body.secret);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });
    await call(server, `/api/api-keys/${body.key.id}`, { method: 'PATCH', cookie: alice.cookie, body: { status: 'active' } });
    expect((await useKey(body.secret)).status).toBe(200);
  });

  it('refuses a deleted key at once', async () => {
    const { body } = await call(server, '/api/api-keys', { cookie: alice.cookie, body: {} });
    expect((await useKey(body.secret)).status).toBe(200);
    const del = await call(server, `/api/api-keys/${body.key.id}`, { method: 'DELETE', cookie: alice.cookie });
    expect(del.status).toBe(204);
    expect((await useKey(body.secret)).status).toBe(401);
    const again = await call(server, `/api/api-keys/${body.key.id}`, { method: 'DELETE', cookie: alice.cookie });
    expect(again.status).toBe(404);
  });

  it('refuses keys of a disabled account, and anything that is not a key', async () => {
    const carol = await signUp(server, 'carol');
    const { body } = await call(server, '/api/api-keys', { cookie: carol.cookie, body: {} });
    await server.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, carol.id));
    expect((await useKey(body.secret)).status).toBe(401);
    expect((await useKey('atl_' + 'A'.repeat(43))).status).toBe(401);
    expect((await useKey('sk-not-ours')).status).toBe(401);
    expect((await business.request('/v1/whoami')).status).toBe(401);
  });
});
