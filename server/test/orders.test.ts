import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../src/domain/creditsLedger.ts';
import { signStripePayload, verifyStripeSignature } from '../src/domain/stripeCheckout.ts';
import { DATABASES } from './support/databases.ts';
import { FakeStripe } from './support/fakeStripe.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('pricing and manual orders on %s', (kind) => {
  let server: TestServer;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signUp(server, 'admin');
    alice = await signUp(server, 'alice');
    bob = await signUp(server, 'bob');
  });
  afterAll(() => server.close());

  it('serves the configured packs to anyone', async () => {
    const res = await call(server, '/api/pricing');
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('manual');
    expect(res.body.packs).toContainEqual({ id: 'creator', credits: 2200, price: 2000, currency: 'usd', featured: true });
    expect(res.body.packs).toContainEqual({ id: 'starter', credits: 500, price: 500, currency: 'usd', featured: false });
  });

  it('creates a pending manual order that an admin approves, crediting the pack once', async () => {
    const created = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'starter' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ packId: 'starter', credits: 500, price: 500, currency: 'usd', provider: 'manual', status: 'pending', checkoutUrl: null, paidAt: null });
    expect(await balanceOf(server.database.db, alice.id)).toBe(100);

    const approve = await call(server, `/api/admin/orders/${created.body.id}/approve`, { method: 'POST', cookie: admin.cookie });
    expect(approve.status).toBe(200);
    expect(approve.body).toMatchObject({ id: created.body.id, status: 'paid', userId: alice.id, userEmail: alice.email, approvedBy: admin.id });
    expect(await balanceOf(server.database.db, alice.id)).toBe(600);

    const twice = await call(server, `/api/admin/orders/${created.body.id}/approve`, { method: 'POST', cookie: admin.cookie });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('ORDER_NOT_PENDING');
    expect(await balanceOf(server.database.db, alice.id)).toBe(600);

    const ledger = await call(server, '/api/credits/ledger', { cookie: alice.cookie });
    expect(ledger.body.entries[0]).toMatchObject({ kind: 'topup', amount: 500, orderId: created.body.id });
  });

  it('credits once when two approvals race', async () => {
    const created = await call(server, '/api/orders', { cookie: bob.cookie, body: { packId: 'studio' } });
    const before = await balanceOf(server.database.db, bob.id);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(server, `/api/admin/orders/${created.body.id}/approve`, { method: 'POST', cookie: admin.cookie })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await balanceOf(server.database.db, bob.id)).toBe(before + 6000);
  });

  it('lists and shows only the caller’s own orders', async () => {
    const mine = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'creator' } });
    const list = await call(server, '/api/orders', { cookie: alice.cookie });
    expect(list.status).toBe(200);
    expect(list.body.orders[0]).toMatchObject({ id: mine.body.id, status: 'pending' });
    const bobs = await call(server, '/api/orders', { cookie: bob.cookie });
    expect(bobs.body.orders.map((o: { id: string }) => o.id)).not.toContain(mine.body.id);
    expect((await call(server, `/api/orders/${mine.body.id}`, { cookie: alice.cookie })).status).toBe(200);
    const peek = await call(server, `/api/orders/${mine.body.id}`, { cookie: bob.cookie });
    expect(peek.status).toBe(404);
    expect(peek.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses unknown packs and bad input', async () => {
    const unknown = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'free-money' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'packId' }] });
    expect((await call(server, '/api/orders', { cookie: alice.cookie, body: {} })).status).toBe(400);
    expect((await call(server, '/api/orders/123', { cookie: alice.cookie })).status).toBe(400);
  });

  it('requires a session for orders, and an admin to approve', async () => {
    expect((await call(server, '/api/orders')).status).toBe(401);
    expect((await call(server, '/api/orders', { body: { packId: 'starter' } })).status).toBe(401);
    expect((await call(server, `/api/orders/${crypto.randomUUID()}`)).status).toBe(401);
    const order = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'starter' } });
    const self = await call(server, `/api/admin/orders/${order.body.id}/approve`, { method: 'POST', cookie: alice.cookie });
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('FORBIDDEN');
    expect(await balanceOf(server.database.db, alice.id)).toBe(600);
  });

  it('has no Stripe webhook when Stripe is not configured', async () => {
    const res = await call(server, '/api/webhooks/stripe', { body: '{}', origin: null });
    expect(res.status).toBe(404);
  });
});

describe.each(DATABASES)('Stripe Checkout on %s', (kind) => {
  const webhookSecret = 'whsec_test_secret';
  const stripe = new FakeStripe();
  let server: TestServer;
  let alice: SignedIn;

  beforeAll(async () => {
    await stripe.start();
    server = await startTestServer(kind, { stripe: { secretKey: 'sk_test_123', webhookSecret, apiBase: stripe.url } });
    await signUp(server, 'admin');
    alice = await signUp(server, 'alice');
  });
  afterAll(async () => {
    await server.close();
    await stripe.stop();
  });

  function deliver(event: object, options: { secret?: string; timestamp?: number; signature?: string } = {}) {
    const raw = JSON.stringify(event);
    const signature = options.signature ?? signStripePayload(raw, options.secret ?? webhookSecret, options.timestamp);
    return call(server, '/api/webhooks/stripe', { body: raw, origin: null, headers: { 'stripe-signature': signature } });
  }

  const completed = (sessionId: string, id = `evt_${crypto.randomUUID()}`, amount = 2000) => ({
    id,
    type: 'checkout.session.completed',
    data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', amount_total: amount, currency: 'usd' } },
  });

  async function buyCreator() {
    const res = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'creator' } });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('says Stripe is the provider', async () => {
    expect((await call(server, '/api/pricing')).body.provider).toBe('stripe');
  });

  it('opens a Checkout Session with the order’s price and returns its URL', async () => {
    const order = await buyCreator();
    expect(order).toMatchObject({ provider: 'stripe', status: 'pending', credits: 2200 });
    expect(order.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const sent = stripe.requests.at(-1)!;
    expect(sent.auth).toBe('Bearer sk_test_123');
    expect(sent.idempotencyKey).toBe(`checkout-${order.id}`);
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: 'payment',
      client_reference_id: order.id,
      customer_email: alice.email,
      'line_items[0][price_data][unit_amount]': '2000',
      'line_items[0][price_data][currency]': 'usd',
      'metadata[order_id]': order.id,
    });
  });

  it('credits a paid order once, however often the webhook is replayed', async () => {
    const order = await buyCreator();
    const sessionId = order.checkoutUrl.split('/').at(-1);
    const before = await balanceOf(server.database.db, alice.id);
    const event = completed(sessionId);
    const first = await deliver(event);
    expect(first).toMatchObject({ status: 200, body: { received: true, outcome: 'credited' } });
    const replay = await deliver(event);
    expect(replay).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    // Replays arriving together, too.
    const burst = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(burst.every((r) => r.body.outcome === 'duplicate')).toBe(true);
    // A different event for the same, already paid, session credits nothing either.
    expect((await deliver(completed(sessionId))).body.outcome).toBe('ignored');
    expect(await balanceOf(server.database.db, alice.id)).toBe(before + 2200);
    const shown = await call(server, `/api/orders/${order.id}`, { cookie: alice.cookie });
    expect(shown.body).toMatchObject({ status: 'paid', checkoutUrl: null });
  });

  it('credits nothing for a forged, stale or unsigned webhook', async () => {
    const order = await buyCreator();
    const sessionId = order.checkoutUrl.split('/').at(-1);
    const before = await balanceOf(server.database.db, alice.id);
    const forged = await deliver(completed(sessionId), { secret: 'whsec_guessed' });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('UNAUTHORIZED');
    const stale = await deliver(completed(sessionId), { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    const unsigned = await call(server, '/api/webhooks/stripe', { body: completed(sessionId), origin: null });
    expect(unsigned.status).toBe(401);
    // A valid signature over a different body does not carry over to this one.
    const raw = JSON.stringify(completed(sessionId));
    const tampered = await call(server, '/api/webhooks/stripe', {
      body: raw.replace('"amount_total":2000', '"amount_total":2000 '),
      origin: null,
      headers: { 'stripe-signature': signStripePayload(raw, webhookSecret) },
    });
    expect(tampered.status).toBe(401);
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
    expect((await call(server, `/api/orders/${order.id}`, { cookie: alice.cookie })).body.status).toBe('pending');
  });

  it('credits nothing when the amount paid is not the order’s, or the session is unpaid', async () => {
    const order = await buyCreator();
    const sessionId = order.checkoutUrl.split('/').at(-1);
    const before = await balanceOf(server.database.db, alice.id);
    expect((await deliver(completed(sessionId, undefined, 1))).body.outcome).toBe('ignored');
    const unpaid = completed(sessionId);
    unpaid.data.object.payment_status = 'unpaid';
    expect((await deliver(unpaid)).body.outcome).toBe('ignored');
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
  });

  it('cancels the order when the Checkout Session expires', async () => {
    const order = await buyCreator();
    const sessionId = order.checkoutUrl.split('/').at(-1);
    const res = await deliver({ id: `evt_${crypto.randomUUID()}`, type: 'checkout.session.expired', data: { object: { id: sessionId } } });
    expect(res.body.outcome).toBe('cancelled');
    expect((await call(server, `/api/orders/${order.id}`, { cookie: alice.cookie })).body.status).toBe('cancelled');
  });

  it('refuses a signed body that is not an event', async () => {
    const res = await deliver({ hello: 'world' });
    expect(res.status).toBe(400);
  });

  it('answers PAYMENT_FAILED and keeps no pending order when Stripe refuses', async () => {
    stripe.failNext = true;
    const res = await call(server, '/api/orders', { cookie: alice.cookie, body: { packId: 'starter' } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('PAYMENT_FAILED');
    const list = await call(server, '/api/orders', { cookie: alice.cookie });
    expect(list.body.orders[0]).toMatchObject({ packId: 'starter', status: 'cancelled' });
  });

  it('does not let an admin approve a Stripe order by hand', async () => {
    const order = await buyCreator();
    const admins = await call(server, '/api/admin/users?limit=1&offset=0', { headers: { authorization: 'Bearer operator-token-for-tests' } });
    expect(admins.status).toBe(200);
    const res = await call(server, `/api/admin/orders/${order.id}/approve`, { method: 'POST', headers: { authorization: 'Bearer operator-token-for-tests' } });
    expect(res.status).toBe(403);
  });
});

describe('Stripe signature scheme', () => {
  it('matches Stripe’s documented construction', () => {
    const header = signStripePayload('{"id":"evt_1"}', 'whsec_x', 1_700_000_000);
    const v1 = createHmac('sha256', 'whsec_x').update('1700000000.{"id":"evt_1"}').digest('hex');
    expect(header).toBe(`t=1700000000,v1=${v1}`);
    expect(verifyStripeSignature('{"id":"evt_1"}', header, 'whsec_x', 300, 1_700_000_100)).toBe(true);
    expect(verifyStripeSignature('{"id":"evt_1"}', `${header},v1=${'0'.repeat(64)}`, 'whsec_x', 300, 1_700_000_100)).toBe(true);
    expect(verifyStripeSignature('{"id":"evt_1"}', header, 'whsec_x', 300, 1_700_000_400)).toBe(false);
    expect(verifyStripeSignature('{"id":"evt_2"}', header, 'whsec_x', 300, 1_700_000_100)).toBe(false);
    expect(verifyStripeSignature('{"id":"evt_1"}', 't=1700000000', 'whsec_x', 300, 1_700_000_100)).toBe(false);
    expect(verifyStripeSignature('{"id":"evt_1"}', undefined, 'whsec_x')).toBe(false);
  });
});
