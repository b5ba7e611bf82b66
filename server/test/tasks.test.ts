import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, tasks } from '../src/db/schema.ts';
import { balanceOf } from '../src/domain/creditsLedger.ts';
import { claimTask } from '../src/domain/tasks.ts';
import { loadGenerationSettings } from '../src/config.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { FAKE_MEDIA, PNG_1X1, Script, scriptedModels } from './support/scriptedEngines.ts';
import { ORIGIN, startTestServer, type TestServer } from './support/testServer.ts';

const FINISHED = ['completed', 'failed', 'cancelled'];

async function waitFor(server: TestServer, user: SignedIn, id: string, until: (t: any) => boolean = (t) => FINISHED.includes(t.status), timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(server, `/api/tasks/${id}`, { cookie: user.cookie });
    if (res.status !== 200) throw new Error(`task ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (until(res.body) || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function ledgerOf(server: TestServer, taskId: string) {
  // Identity order is the ledger's own order; without ORDER BY PostgreSQL may return any.
  return server.database.db.select().from(creditLedger).where(eq(creditLedger.taskId, taskId)).orderBy(creditLedger.id);
}

const image = (user: SignedIn, body: Record<string, unknown>, headers: Record<string, string> = {}) => ({ cookie: user.cookie, body: { model: 'scripted-image', ...body }, headers });

describe.each(DATABASES)('generation tasks on %s', (kind) => {
  let server: TestServer;
  let alice: SignedIn;
  let bob: SignedIn;
  const script = new Script();

  beforeAll(async () => {
    server = await startTestServer(
      kind,
      { generation: { ...loadGenerationSettings({}), retryBaseMs: 30, progressIntervalMs: 30, staleAfterMs: 1500, maxAttempts: 3, concurrency: 4 } },
      { models: scriptedModels(script, [], { timeoutMs: 1500 }) },
    );
    await server.services.generation.start();
    alice = await signUp(server, 'alice');
    bob = await signUp(server, 'bob');
  });
  afterAll(() => server.close());

  it('lists the models with kind, price and limits', async () => {
    const res = await call(server, '/api/models');
    expect(res.status).toBe(200);
    const ids = res.body.models.map((m: { id: string }) => m.id);
    expect(ids).toEqual(['scripted-image', 'scripted-video', 'scripted-music', 'echo-chat']);
    expect(res.body.models[0]).toMatchObject({ kind: 'image', price: 1, priceUnit: 'image', limits: { n: { min: 1, max: 4 } } });
  });

  it('runs a task from submitted to completed, charging the price once', async () => {
    const before = await balanceOf(server.database.db, alice.id);
    const res = await call(server, '/api/tasks/images', image(alice, { prompt: 'a red kite', n: 2, seed: 7 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'image', mode: 'text-to-image', model: 'scripted-image', cost: 2, visibility: 'private', params: { n: 2, seed: 7, width: 64, height: 64 } });
    expect(['queued', 'processing', 'completed']).toContain(res.body.status);
    const done = await waitFor(server, alice, res.body.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, errorCode: null });
    expect(done.outputs).toHaveLength(2);
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(await balanceOf(server.database.db, alice.id)).toBe(before - 2);
    const entries = await ledgerOf(server, res.body.id);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([['spend', -2]]);
  });

  it('refuses an unknown model, and a model of another kind, charging nothing', async () => {
    const before = await balanceOf(server.database.db, alice.id);
    for (const model of ['no-such-model', 'scripted-video']) {
      const res = await call(server, '/api/tasks/images', image(alice, { model, prompt: 'x' }));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('UNKNOWN_MODEL');
    }
    const bad = await call(server, '/api/tasks/images', image(alice, { prompt: 'x', width: 5000 }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'width' }] });
    const video = await call(server, '/api/tasks/videos', { cookie: alice.cookie, body: { model: 'scripted-video', prompt: '   ' } });
    expect(video.body.error.code).toBe('VIDEO_PROMPT_REQUIRED');
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
  });

  it('refuses with INSUFFICIENT_BALANCE and records no task when credits run short', async () => {
    const poor = await signUp(server, 'poor');
    await server.database.db.execute(sql`UPDATE credit_balances SET balance = 3 WHERE user_id = ${poor.id}`);
    const res = await call(server, '/api/tasks/images', image(poor, { prompt: 'four pictures', n: 4 }));
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('INSUFFICIENT_BALANCE');
    const list = await call(server, '/api/tasks?kind=image', { cookie: poor.cookie });
    expect(list.body.tasks).toEqual([]);
    expect(await balanceOf(server.database.db, poor.id)).toBe(3);
  });

  it('refunds a failed task exactly once, with the engine’s catalogue code', async () => {
    const before = await balanceOf(server.database.db, alice.id);
    const res = await call(server, '/api/tasks/music', { cookie: alice.cookie, body: { model: 'scripted-music', prompt: 'fail please' } });
    expect(res.status).toBe(201);
    const done = await waitFor(server, alice, res.body.id);
    expect(done).toMatchObject({ status: 'failed', errorCode: 'VALIDATION_FAILED' });
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
    expect((await ledgerOf(server, res.body.id)).map((e) => [e.kind, e.amount])).toEqual([['spend', -5], ['refund', 5]]);
    // Cancelling or failing it again moves nothing.
    const again = await call(server, `/api/tasks/${res.body.id}/cancel`, { cookie: alice.cookie, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('TASK_ALREADY_FINISHED');
    expect(await ledgerOf(server, res.body.id)).toHaveLength(2);
  });

  it('retries transient engine failures with backoff, then succeeds', async () => {
    const res = await call(server, '/api/tasks/images', image(alice, { prompt: 'flaky:2 lighthouse' }));
    const done = await waitFor(server, alice, res.body.id);
    expect(done.status).toBe('completed');
    const [row] = await server.database.db.select().from(tasks).where(eq(tasks.id, res.body.id));
    expect(row!.attempts).toBe(3);
    expect(script.calls.filter((c) => c.prompt === 'flaky:2 lighthouse')).toHaveLength(3);
    expect((await ledgerOf(server, res.body.id)).map((e) => e.kind)).toEqual(['spend']);
  });

  it('fails and refunds after the last attempt when the backend stays down', async () => {
    const res = await call(server, '/api/tasks/images', image(alice, { prompt: 'down again' }));
    const done = await waitFor(server, alice, res.body.id);
    expect(done).toMatchObject({ status: 'failed', errorCode: 'ENGINE_UNAVAILABLE' });
    expect(script.calls.filter((c) => c.prompt === 'down again')).toHaveLength(3);
    expect((await ledgerOf(server, res.body.id)).map((e) => e.kind)).toEqual(['spend', 'refund']);
  });

  it('stops a task at its time limit, fails it with GENERATION_TIMEOUT and refunds it', async () => {
    const res = await call(server, '/api/tasks/videos', { cookie: alice.cookie, body: { model: 'scripted-video', prompt: 'hang forever' } });
    const done = await waitFor(server, alice, res.body.id);
    expect(done).toMatchObject({ status: 'failed', errorCode: 'GENERATION_TIMEOUT' });
    expect(script.calls.find((c) => c.prompt === 'hang forever')!.aborted).toBe(true);
    expect((await ledgerOf(server, res.body.id)).map((e) => [e.kind, e.amount])).toEqual([['spend', -10], ['refund', 10]]);
  });

  it('shows progress and an estimate while processing, and cancels with a refund', async () => {
    const before = await balanceOf(server.database.db, alice.id);
    const res = await call(server, '/api/tasks/videos', { cookie: alice.cookie, body: { model: 'scripted-video', prompt: 'slow:1200 clouds', style: 'abstract' } });
    const running = await waitFor(server, alice, res.body.id, (t) => t.status === 'processing' && t.progress > 0);
    expect(running.progress).toBeGreaterThan(0);
    expect(running.progress).toBeLessThan(100);
    expect(running.etaMs).toBeGreaterThan(0);
    const cancelled = await call(server, `/api/tasks/${res.body.id}/cancel`, { cookie: alice.cookie, body: {} });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', errorCode: 'TASK_CANCELLED' } });
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(script.calls.find((c) => c.prompt === 'slow:1200 clouds')!.aborted).toBe(true);
    const after = await waitFor(server, alice, res.body.id);
    expect(after.status).toBe('cancelled');
    expect((await ledgerOf(server, res.body.id)).map((e) => e.kind)).toEqual(['spend', 'refund']);
  });

  it('replays a submission with the same Idempotency-Key and charges once', async () => {
    const before = await balanceOf(server.database.db, alice.id);
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    const [a, b] = await Promise.all([
      call(server, '/api/tasks/images', image(alice, { prompt: 'same request' }, headers)),
      call(server, '/api/tasks/images', image(alice, { prompt: 'same request' }, headers)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
    const other = await call(server, '/api/tasks/images', image(alice, { prompt: 'another request' }, headers));
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await waitFor(server, alice, a.body.id);
    expect(await balanceOf(server.database.db, alice.id)).toBe(before - 1);
  });

  it('keeps credits exact under 100 concurrent submissions', async () => {
    const user = await signUp(server, 'burst');
    await server.database.db.execute(sql`UPDATE credit_balances SET balance = 60 WHERE user_id = ${user.id}`);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => call(server, '/api/tasks/images', image(user, { prompt: `burst ${i}` }))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(60);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(await balanceOf(server.database.db, user.id)).toBe(0);
    const spent = await server.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(spent.filter((e) => e.kind === 'spend')).toHaveLength(60);
    const [count] = await server.database.db.select({ n: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.userId, user.id));
    expect(count!.n).toBe(60);
  });

  it('lists my tasks newest first, page by page', async () => {
    const user = await signUp(server, 'pages');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call(server, '/api/tasks/music', { cookie: user.cookie, body: { model: 'scripted-music', prompt: `track ${i}` } })).body.id);
    const first = await call(server, '/api/tasks?kind=music&limit=2', { cookie: user.cookie });
    expect(first.body.tasks.map((t: { id: string }) => t.id)).toEqual([ids[4], ids[3]]);
    const second = await call(server, `/api/tasks?kind=music&limit=2&cursor=${first.body.nextCursor}`, { cookie: user.cookie });
    expect(second.body.tasks.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    const third = await call(server, `/api/tasks?kind=music&limit=2&cursor=${second.body.nextCursor}`, { cookie: user.cookie });
    expect(third.body).toMatchObject({ tasks: [{ id: ids[0] }], nextCursor: null });
    const images = await call(server, '/api/tasks?kind=image', { cookie: user.cookie });
    expect(images.body.tasks).toEqual([]);
    const others = await call(server, '/api/tasks?kind=music', { cookie: bob.cookie });
    expect(others.body.tasks.map((t: { id: string }) => t.id)).not.toContain(ids[0]);
  });

  it('serves private files to the owner only, public ones to anyone, shared ones with the token', async () => {
    const res = await call(server, '/api/tasks/videos', { cookie: alice.cookie, body: { model: 'scripted-video', prompt: 'a quiet harbour' } });
    const done = await waitFor(server, alice, res.body.id);
    const url: string = done.outputs[0].url;
    expect(done.outputs[0]).toMatchObject({ contentType: 'video/mp4', byteSize: FAKE_MEDIA.length });
    const mine = await server.app.request(url, { headers: { cookie: alice.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('video/mp4');
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(FAKE_MEDIA);
    // A byte range, as a video element asks for when seeking.
    const part = await server.app.request(url, { headers: { cookie: alice.cookie, range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${FAKE_MEDIA.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(FAKE_MEDIA.slice(1000, 2000));
    const tail = await server.app.request(url, { headers: { cookie: alice.cookie, range: 'bytes=-10' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(FAKE_MEDIA.slice(-10));
    const outside = await server.app.request(url, { headers: { cookie: alice.cookie, range: 'bytes=999999-' } });
    expect(outside.status).toBe(416);
    // Others: not even told it exists.
    for (const headers of [{}, { cookie: bob.cookie }] as Record<string, string>[]) {
      const refused = await server.app.request(url, { headers });
      expect(refused.status).toBe(404);
      expect((await refused.json()).error.code).toBe('NOT_FOUND');
    }
    expect((await call(server, `/api/tasks/${res.body.id}`, { cookie: bob.cookie })).status).toBe(404);
    // A share link opens it to whoever holds the token.
    const share = await call(server, `/api/tasks/${res.body.id}/share`, { cookie: alice.cookie, body: {} });
    expect(share.body.url).toBe(`${ORIGIN}/shared/${share.body.token}`);
    const shared = await call(server, `/api/shared/${share.body.token}`);
    expect(shared.body).toMatchObject({ id: res.body.id, shareUrl: null });
    expect((await server.app.request(shared.body.outputs[0].url)).status).toBe(200);
    expect((await server.app.request(`${url}?share=${'x'.repeat(32)}`)).status).toBe(404);
    await call(server, `/api/tasks/${res.body.id}/share`, { method: 'DELETE', cookie: alice.cookie });
    expect((await server.app.request(shared.body.outputs[0].url)).status).toBe(404);
    // Public: anyone, and it shows in explore.
    const pub = await call(server, `/api/tasks/${res.body.id}`, { method: 'PATCH', cookie: alice.cookie, body: { visibility: 'public' } });
    expect(pub.body.visibility).toBe('public');
    expect((await server.app.request(url)).status).toBe(200);
    const explore = await call(server, '/api/explore?kind=video');
    expect(explore.body.tasks.map((t: { id: string }) => t.id)).toContain(res.body.id);
    expect(explore.body.tasks.find((t: { id: string }) => t.id === res.body.id).cost).toBe(0);
    await call(server, `/api/tasks/${res.body.id}`, { method: 'PATCH', cookie: alice.cookie, body: { visibility: 'private' } });
    expect((await server.app.request(url)).status).toBe(404);
    expect((await call(server, '/api/explore?kind=video')).body.tasks.map((t: { id: string }) => t.id)).not.toContain(res.body.id);
  });

  it('takes an uploaded picture for image-to-image, and keeps it private', async () => {
    const form = new FormData();
    form.set('model', 'scripted-image');
    form.set('prompt', 'as a watercolour');
    form.set('strength', '0.3');
    form.set('image', new Blob([PNG_1X1], { type: 'image/png' }), 'in.png');
    const res = await server.app.request('/api/tasks/images/edits', { method: 'POST', body: form, headers: { cookie: alice.cookie, origin: ORIGIN } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ mode: 'image-to-image', params: { strength: 0.3 } });
    expect((await waitFor(server, alice, body.id)).status).toBe('completed');
    // Uploads may be larger than other bodies (this server caps those at 64 KiB).
    const big = new Uint8Array(200 * 1024);
    big.set(PNG_1X1);
    const large = new FormData();
    large.set('model', 'scripted-image');
    large.set('prompt', 'a large picture');
    large.set('image', new Blob([big], { type: 'image/png' }), 'big.png');
    const accepted = await server.app.request('/api/tasks/images/edits', { method: 'POST', body: large, headers: { cookie: alice.cookie, origin: ORIGIN } });
    expect(accepted.status).toBe(201);
    const tooBig = await call(server, '/api/tasks/images', image(alice, { prompt: 'x'.repeat(3000), negativePrompt: 'y'.repeat(70 * 1024) }));
    expect(tooBig.status).toBe(413);
    const notPicture = new FormData();
    notPicture.set('model', 'scripted-image');
    notPicture.set('prompt', 'x');
    notPicture.set('image', new Blob(['hello'], { type: 'image/png' }), 'in.png');
    const bad = await server.app.request('/api/tasks/images/edits', { method: 'POST', body: notPicture, headers: { cookie: alice.cookie, origin: ORIGIN } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'image' }] });
  });

  it('deletes a task with its files; deleting a running one cancels and refunds it', async () => {
    const res = await call(server, '/api/tasks/music', { cookie: alice.cookie, body: { model: 'scripted-music', prompt: 'short tune' } });
    const done = await waitFor(server, alice, res.body.id);
    const del = await call(server, `/api/tasks/${res.body.id}`, { method: 'DELETE', cookie: alice.cookie });
    expect(del.status).toBe(204);
    expect((await call(server, `/api/tasks/${res.body.id}`, { cookie: alice.cookie })).status).toBe(404);
    expect((await server.app.request(done.outputs[0].url, { headers: { cookie: alice.cookie } })).status).toBe(404);
    const before = await balanceOf(server.database.db, alice.id);
    const running = await call(server, '/api/tasks/music', { cookie: alice.cookie, body: { model: 'scripted-music', prompt: 'hang on delete' } });
    await waitFor(server, alice, running.body.id, (t) => t.status === 'processing');
    expect((await call(server, `/api/tasks/${running.body.id}`, { method: 'DELETE', cookie: bob.cookie })).status).toBe(404);
    expect((await call(server, `/api/tasks/${running.body.id}`, { method: 'DELETE', cookie: alice.cookie })).status).toBe(204);
    expect(await balanceOf(server.database.db, alice.id)).toBe(before);
  });

  it('streams my task’s status changes as server-sent events', async () => {
    const controller = new AbortController();
    const res = await server.app.request('/api/tasks/events', { headers: { cookie: alice.cookie }, signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
    const submitted = await call(server, '/api/tasks/images', image(alice, { prompt: 'slow:300 events' }));
    // Bob's tasks never reach Alice's stream.
    await call(server, '/api/tasks/images', image(bob, { prompt: 'bob only' }));
    const seen: { taskId: string; status: string; progress: number }[] = [];
    while (!seen.some((e) => e.status === 'completed')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      for (const block of text.split('\n\n').slice(0, -1)) {
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (block.includes('event: task') && data) seen.push(JSON.parse(data));
      }
      text = text.slice(text.lastIndexOf('\n\n') + 2);
    }
    controller.abort();
    expect(seen.every((e) => e.taskId === submitted.body.id)).toBe(true);
    const statuses = seen.map((e) => e.status);
    // In order: queued (unless a free runner claimed the task first), processing, the end.
    const order = ['queued', 'processing', 'completed'];
    expect(statuses.map((s) => order.indexOf(s))).toEqual([...statuses.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    expect(statuses).not.toContain('submitted');
    expect(statuses).toContain('processing');
    expect(statuses.at(-1)).toBe('completed');
    expect(seen.some((e) => e.status === 'processing' && e.progress > 0 && e.progress < 100)).toBe(true);
  });

  it('chats in the dashboard, streamed with citations', async () => {
    const res = await server.app.request('/api/chat', {
      method: 'POST',
      headers: { cookie: alice.cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo-chat', messages: [{ role: 'user', content: 'first second third' }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).toBe('third second first');
    expect(events.find((e) => e.event === 'citations')!.data.citations).toEqual([{ url: '/docs/api', title: 'API guide' }]);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { finishReason: 'stop' } });
    const anonymous = await call(server, '/api/chat', { body: { messages: [{ role: 'user', content: 'x' }] } });
    expect(anonymous.status).toBe(401);
    const unknown = await call(server, '/api/chat', { cookie: alice.cookie, body: { model: 'scripted-image', messages: [{ role: 'user', content: 'x' }] } });
    expect(unknown.body.error.code).toBe('UNKNOWN_MODEL');
  });

  it('requires a session for my tasks, and keeps others’ tasks out of reach', async () => {
    for (const [method, path] of [
      ['GET', '/api/tasks?kind=image'],
      ['POST', '/api/tasks/images'],
      ['GET', '/api/tasks/events'],
      ['GET', `/api/tasks/${crypto.randomUUID()}`],
    ] as const) {
      const res = await call(server, path, { method, ...(method === 'POST' ? { body: { model: 'scripted-image', prompt: 'x' } } : {}) });
      expect(res.status, path).toBe(401);
    }
    const mine = await call(server, '/api/tasks/images', image(alice, { prompt: 'alice’s' }));
    for (const [method, path] of [
      ['PATCH', `/api/tasks/${mine.body.id}`],
      ['POST', `/api/tasks/${mine.body.id}/cancel`],
      ['POST', `/api/tasks/${mine.body.id}/share`],
    ] as const) {
      const res = await call(server, path, { method, cookie: bob.cookie, body: method === 'PATCH' ? { visibility: 'public' } : {} });
      expect(res.status, path).toBe(404);
    }
  });

  it('rescues tasks a dead process left processing: requeued, or failed and refunded once attempts are used up', async () => {
    const gen = server.services.generation;
    await gen.stop();
    const user = await signUp(server, 'orphans');
    const make = async (prompt: string) => (await call(server, '/api/tasks/images', image(user, { prompt }))).body.id as string;
    const again = await make('orphan to rerun');
    const lost = await make('orphan out of attempts');
    // A process claimed both, then died without a word.
    await claimTask(server.database.db, again, 'dead-worker');
    await claimTask(server.database.db, lost, 'dead-worker');
    await server.database.db.update(tasks).set({ attempts: 3, heartbeatAt: new Date(Date.now() - 3_600_000) }).where(eq(tasks.id, lost));
    await server.database.db.update(tasks).set({ heartbeatAt: new Date(Date.now() - 3_600_000) }).where(eq(tasks.id, again));
    const before = await balanceOf(server.database.db, user.id);
    // A new Generation, as a restarted server has.
    const { Generation } = await import('../src/jobs/generation.ts');
    const restarted = new Generation({ db: server.database.db, models: gen.models, storage: gen.storage, settings: gen.settings, embedded: false });
    await restarted.start();
    try {
      expect((await waitFor(server, user, again)).status).toBe('completed');
      expect(await waitFor(server, user, lost)).toMatchObject({ status: 'failed', errorCode: 'TASK_INTERRUPTED' });
      expect(await balanceOf(server.database.db, user.id)).toBe(before + 1);
      expect((await ledgerOf(server, lost)).map((e) => e.kind)).toEqual(['spend', 'refund']);
    } finally {
      await restarted.stop();
    }
  });

  it('stops a task running on another node when it is cancelled here, without Redis', async () => {
    const gen = server.services.generation;
    await gen.stop();
    const { Generation } = await import('../src/jobs/generation.ts');
    // Another server node on the same database, with its own runner and its own (local) events.
    const otherNode = new Generation({ db: server.database.db, models: gen.models, storage: gen.storage, settings: gen.settings, embedded: false });
    await otherNode.start();
    try {
      const res = await call(server, '/api/tasks/videos', { cookie: alice.cookie, body: { model: 'scripted-video', prompt: 'hang on the other node' } });
      await waitFor(server, alice, res.body.id, (t) => t.status === 'processing');
      expect((await call(server, `/api/tasks/${res.body.id}/cancel`, { cookie: alice.cookie, body: {} })).body.status).toBe('cancelled');
      for (let i = 0; i < 100 && !script.calls.find((c) => c.prompt === 'hang on the other node')?.aborted; i++) await new Promise((r) => setTimeout(r, 20));
      expect(script.calls.find((c) => c.prompt === 'hang on the other node')!.aborted).toBe(true);
      expect((await ledgerOf(server, res.body.id)).map((e) => e.kind)).toEqual(['spend', 'refund']);
    } finally {
      await otherNode.stop();
    }
  });

  it('on the embedded database, takes every task left processing at start as an orphan, however fresh its heartbeat', async () => {
    const gen = server.services.generation;
    await gen.stop();
    const user = await signUp(server, 'embedded');
    const id = (await call(server, '/api/tasks/images', image(user, { prompt: 'left behind just now' }))).body.id as string;
    await claimTask(server.database.db, id, 'the-process-that-just-died');
    const { Generation } = await import('../src/jobs/generation.ts');
    const restarted = new Generation({ db: server.database.db, models: gen.models, storage: gen.storage, settings: { ...gen.settings, staleAfterMs: 3_600_000 }, embedded: true });
    await restarted.start();
    try {
      const done = await waitFor(server, user, id);
      expect(done.status).toBe('completed');
      const [row] = await server.database.db.select().from(tasks).where(eq(tasks.id, id));
      expect(row!.attempts).toBe(2);
    } finally {
      await restarted.stop();
    }
  });
});
