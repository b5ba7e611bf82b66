import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../src/domain/creditsLedger.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { OPERATOR_TOKEN, startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('admin on %s', (kind) => {
  let server: TestServer;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signUp(server, 'admin');
    alice = await signUp(server, 'alice');
    bob = await signUp(server, 'bob');
  });
  afterAll(() => server.close());

  it('lists accounts newest first, with role, state and balance', async () => {
    const res = await call(server, '/api/admin/users', { cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    expect(res.body.users[0]).toMatchObject({ id: bob.id, email: bob.email, role: 'user', disabled: false, credits: 100 });
    expect(res.body.users.find((u: { id: string }) => u.id === admin.id).role).toBe('admin');
  });

  it('searches by part of an email, and finds an exact email', async () => {
    const part = alice.email.slice(0, 12).toUpperCase();
    const res = await call(server, `/api/admin/users?q=${encodeURIComponent(part)}`, { cookie: admin.cookie });
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    const exact = await call(server, `/api/admin/users?email=${encodeURIComponent(bob.email)}`, { cookie: admin.cookie });
    expect(exact.body).toMatchObject({ total: 1, users: [{ id: bob.id }] });
    // LIKE wildcards are searched for literally.
    const wild = await call(server, '/api/admin/users?q=%25', { cookie: admin.cookie });
    expect(wild.body.total).toBe(0);
  });

  it('pages through accounts', async () => {
    const page = await call(server, '/api/admin/users?limit=1&offset=1', { cookie: admin.cookie });
    expect(page.body.users).toHaveLength(1);
    expect(page.body.users[0].id).toBe(alice.id);
    expect((await call(server, '/api/admin/users?limit=500', { cookie: admin.cookie })).status).toBe(400);
  });

  it('adjusts credits with a reason, both ways, never below zero', async () => {
    const up = await call(server, `/api/admin/users/${alice.id}/credits`, { cookie: admin.cookie, body: { amount: 50, reason: 'Support gesture' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ balance: 150, entry: { kind: 'adjustment', amount: 50, reason: 'Support gesture', balanceAfter: 150 } });
    const down = await call(server, `/api/admin/users/${alice.id}/credits`, { cookie: admin.cookie, body: { amount: -150, reason: 'Abuse' } });
    expect(down.body.balance).toBe(0);
    const below = await call(server, `/api/admin/users/${alice.id}/credits`, { cookie: admin.cookie, body: { amount: -1, reason: 'More' } });
    expect(below.status).toBe(402);
    expect(below.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(server.database.db, alice.id)).toBe(0);
  });

  it('applies an adjustment once per idempotency key', async () => {
    const body = { amount: 5, reason: 'Retry-safe', idempotencyKey: 'ticket-42' };
    await call(server, `/api/admin/users/${bob.id}/credits`, { cookie: admin.cookie, body });
    const again = await call(server, `/api/admin/users/${bob.id}/credits`, { cookie: admin.cookie, body });
    expect(again.status).toBe(200);
    expect(await balanceOf(server.database.db, bob.id)).toBe(105);
  });

  it('refuses invalid adjustments', async () => {
    for (const body of [{ amount: 0, reason: 'x' }, { amount: 1.5, reason: 'x' }, { amount: 5 }, { amount: 5, reason: '  ' }, { amount: '5', reason: 'x' }]) {
      const res = await call(server, `/api/admin/users/${bob.id}/credits`, { cookie: admin.cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const nobody = await call(server, `/api/admin/users/${crypto.randomUUID()}/credits`, { cookie: admin.cookie, body: { amount: 5, reason: 'x' } });
    expect(nobody.status).toBe(404);
  });

  it('disables an account: its sessions end and it cannot sign in; enabling restores sign-in', async () => {
    const carol = await signUp(server, 'carol');
    const res = await call(server, `/api/admin/users/${carol.id}`, { method: 'PATCH', cookie: admin.cookie, body: { disabled: true } });
    expect(res).toMatchObject({ status: 200, body: { id: carol.id, disabled: true } });
    expect((await call(server, '/api/auth/session', { cookie: carol.cookie })).body).toEqual({ user: null });
    expect((await call(server, '/api/auth/login', { body: { email: carol.email, password: carol.password } })).status).toBe(403);
    await call(server, `/api/admin/users/${carol.id}`, { method: 'PATCH', cookie: admin.cookie, body: { disabled: false } });
    expect((await call(server, '/api/auth/login', { body: { email: carol.email, password: carol.password } })).status).toBe(200);
  });

  it('promotes and demotes, but an admin cannot lock themselves out', async () => {
    const dave = await signUp(server, 'dave');
    const up = await call(server, `/api/admin/users/${dave.id}`, { method: 'PATCH', cookie: admin.cookie, body: { role: 'admin' } });
    expect(up.body.role).toBe('admin');
    expect((await call(server, '/api/admin/users', { cookie: dave.cookie })).status).toBe(200);
    const down = await call(server, `/api/admin/users/${dave.id}`, { method: 'PATCH', cookie: admin.cookie, body: { role: 'user' } });
    expect(down.body.role).toBe('user');
    expect((await call(server, '/api/admin/users', { cookie: dave.cookie })).status).toBe(403);
    const self = await call(server, `/api/admin/users/${admin.id}`, { method: 'PATCH', cookie: admin.cookie, body: { disabled: true } });
    expect(self.status).toBe(403);
    expect((await call(server, `/api/admin/users/${admin.id}`, { method: 'PATCH', cookie: admin.cookie, body: {} })).status).toBe(400);
  });

  it('creates accounts and API keys for them', async () => {
    const created = await call(server, '/api/admin/users', { cookie: admin.cookie, body: { email: 'Provisioned@Example.com', password: 'initial password' } });
    expect(created).toMatchObject({ status: 201, body: { email: 'provisioned@example.com', role: 'user', credits: 100 } });
    expect((await call(server, '/api/auth/login', { body: { email: 'provisioned@example.com', password: 'initial password' } })).status).toBe(200);
    const dup = await call(server, '/api/admin/users', { cookie: admin.cookie, body: { email: 'provisioned@example.com' } });
    expect(dup.status).toBe(409);
    const key = await call(server, `/api/admin/users/${created.body.id}/api-keys`, { cookie: admin.cookie, body: { name: 'batch' } });
    expect(key.status).toBe(201);
    expect(key.body.secret).toMatch(/^atl_/);
  });

  it('refuses invalid input on every admin route that takes any', async () => {
    const cases = [
      ['GET', '/api/admin/users?offset=-1', undefined],
      ['POST', '/api/admin/users', { email: 'not-an-email' }],
      ['POST', '/api/admin/users', { email: 'ok@example.com', role: 'owner' }],
      ['PATCH', '/api/admin/users/not-a-uuid', { role: 'admin' }],
      ['PATCH', `/api/admin/users/${bob.id}`, { disabled: 'yes' }],
      ['POST', `/api/admin/users/${bob.id}/api-keys`, { name: 'x'.repeat(65) }],
      ['POST', '/api/admin/orders/not-a-uuid/approve', undefined],
    ] as const;
    for (const [method, path, body] of cases) {
      const res = await call(server, path, { method, body, cookie: admin.cookie });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call(server, `/api/admin/users/${crypto.randomUUID()}`, { method: 'PATCH', cookie: admin.cookie, body: { role: 'admin' } })).status).toBe(404);
    expect((await call(server, `/api/admin/orders/${crypto.randomUUID()}/approve`, { method: 'POST', cookie: admin.cookie })).status).toBe(404);
  });

  it('lists orders, filtered by status', async () => {
    const order = await call(server, '/api/orders', { cookie: bob.cookie, body: { packId: 'starter' } });
    const pending = await call(server, '/api/admin/orders?status=pending', { cookie: admin.cookie });
    expect(pending.status).toBe(200);
    expect(pending.body.orders[0]).toMatchObject({ id: order.body.id, userId: bob.id, userEmail: bob.email, status: 'pending' });
    const paid = await call(server, '/api/admin/orders?status=paid', { cookie: admin.cookie });
    expect(paid.body.orders.map((o: { id: string }) => o.id)).not.toContain(order.body.id);
    expect((await call(server, '/api/admin/orders?status=lost', { cookie: admin.cookie })).status).toBe(400);
  });

  it('accepts the operator token as an admin, and nothing else as a bearer', async () => {
    expect((await call(server, '/api/admin/users', { headers: operator })).status).toBe(200);
    const adjusted = await call(server, `/api/admin/users/${bob.id}/credits`, { headers: operator, body: { amount: 1, reason: 'CLI' }, origin: null });
    expect(adjusted.status).toBe(200);
    const wrong = await call(server, '/api/admin/users', { headers: { authorization: 'Bearer guessed' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
  });

  it('refuses every admin route to users (403) and visitors (401)', async () => {
    const id = alice.id;
    const routes = [
      ['GET', '/api/admin/users', undefined],
      ['POST', '/api/admin/users', { email: 'x@example.com' }],
      ['PATCH', `/api/admin/users/${id}`, { role: 'admin' }],
      ['POST', `/api/admin/users/${id}/credits`, { amount: 1000, reason: 'self-serve' }],
      ['POST', `/api/admin/users/${id}/api-keys`, {}],
      ['GET', '/api/admin/orders', undefined],
      ['POST', `/api/admin/orders/${crypto.randomUUID()}/approve`, undefined],
    ] as const;
    for (const [method, path, body] of routes) {
      const asUser = await call(server, path, { method, body, cookie: alice.cookie });
      expect(asUser.status, `${method} ${path} as user`).toBe(403);
      expect(asUser.body.error.code).toBe('FORBIDDEN');
      const asVisitor = await call(server, path, { method, body });
      expect(asVisitor.status, `${method} ${path} as visitor`).toBe(401);
    }
    expect(await balanceOf(server.database.db, alice.id)).toBe(0);
  });
});
