/**
 * The business API caches API-key answers and task rows (domain/changes.ts). Nothing it serves may
 * be older than the last change: a key paused, deleted or whose owner is disabled is refused on
 * the very next request, and a task poll shows every change as soon as the change has returned.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { announce, ReadThroughCache, type DataChange } from '../src/domain/changes.ts';
import { claimTask, completeTask, recordProgress } from '../src/domain/tasks.ts';
import { createRedisEventBus, relayChanges } from '../src/jobs/taskEvents.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { Script, scriptedModels } from './support/scriptedEngines.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

describe.each(DATABASES)('business API caches on %s', (kind) => {
  let server: TestServer;
  let admin: SignedIn;
  let alice: SignedIn;
  let db: Database;

  beforeAll(async () => {
    // The runner is not started: the tests move tasks through their states themselves.
    server = await startTestServer(kind, {}, { models: scriptedModels(new Script()) });
    db = server.database.db;
    admin = await signUp(server, 'admin');
    alice = await signUp(server, 'alice');
  });
  afterAll(() => server.close());

  const newKey = async (user: SignedIn) => (await call(server, '/api/api-keys', { cookie: user.cookie, body: {} })).body as { key: { id: string }; secret: string };
  const v1 = (secret: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    call(server, `/v1${path}`, { ...init, headers: { authorization: `Bearer ${secret}` }, origin: null });

  it('refuses a key paused right after it was used, and accepts it again once resumed', async () => {
    const { key, secret } = await newKey(alice);
    expect((await v1(secret, '/models')).status).toBe(200);
    expect((await v1(secret, '/models')).status).toBe(200);
    const paused = await call(server, `/api/api-keys/${key.id}`, { method: 'PATCH', cookie: alice.cookie, body: { status: 'inactive' } });
    expect(paused.status).toBe(200);
    expect((await v1(secret, '/models')).status).toBe(401);
    await call(server, `/api/api-keys/${key.id}`, { method: 'PATCH', cookie: alice.cookie, body: { status: 'active' } });
    expect((await v1(secret, '/models')).status).toBe(200);
  });

  it('refuses a key deleted right after it was used', async () => {
    const { key, secret } = await newKey(alice);
    expect((await v1(secret, '/models')).status).toBe(200);
    expect((await call(server, `/api/api-keys/${key.id}`, { method: 'DELETE', cookie: alice.cookie })).status).toBe(204);
    expect((await v1(secret, '/models')).status).toBe(401);
  });

  it('refuses the keys of an account disabled right after they were used', async () => {
    const carol = await signUp(server, 'carol');
    const { secret } = await newKey(carol);
    expect((await v1(secret, '/models')).status).toBe(200);
    const disabled = await call(server, `/api/admin/users/${carol.id}`, { method: 'PATCH', cookie: admin.cookie, body: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect((await v1(secret, '/models')).status).toBe(401);
    await call(server, `/api/admin/users/${carol.id}`, { method: 'PATCH', cookie: admin.cookie, body: { disabled: false } });
    expect((await v1(secret, '/models')).status).toBe(200);
  });

  it('shows every change of a task to the next status poll, and only to its owner', async () => {
    const { secret } = await newKey(alice);
    const created = await v1(secret, '/videos', { method: 'POST', body: { model: 'scripted-video', prompt: 'a cached clip' } });
    expect(created.status).toBe(200);
    const id: string = created.body.id;
    const poll = async () => (await v1(secret, `/videos/${id}`)).body;
    expect(await poll()).toMatchObject({ status: 'queued', progress: 0, visibility: 'private' });
    expect(await poll()).toMatchObject({ status: 'queued' });

    // Another user's key finds nothing, cached or not.
    const bob = await signUp(server, 'bob');
    expect((await v1((await newKey(bob)).secret, `/videos/${id}`)).status).toBe(404);

    expect(await claimTask(db, id, 'test-runner')).toBeDefined();
    expect(await poll()).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await recordProgress(db, id, 'test-runner', 0.42, 3000)).toBe(true);
    expect(await poll()).toMatchObject({ status: 'in_progress', progress: 42 });
    expect(await completeTask(db, id, 'test-runner', [])).not.toBeNull();
    const done = await poll();
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(done.completed_at).toEqual(expect.any(Number));

    const shared = await call(server, `/api/tasks/${id}`, { method: 'PATCH', cookie: alice.cookie, body: { visibility: 'public' } });
    expect(shared.status).toBe(200);
    expect(await poll()).toMatchObject({ visibility: 'public' });

    expect((await v1(secret, `/videos/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await v1(secret, `/videos/${id}`)).status).toBe(404);
  });

  it('shows a cancellation to the next status poll', async () => {
    const { secret } = await newKey(alice);
    const { body } = await v1(secret, '/videos', { method: 'POST', body: { model: 'scripted-video', prompt: 'a clip to cancel' } });
    expect((await v1(secret, `/videos/${body.id}`)).body).toMatchObject({ status: 'queued' });
    await server.services.generation.cancel(alice.id, body.id);
    expect((await v1(secret, `/videos/${body.id}`)).body).toMatchObject({ status: 'failed', error: { code: 'TASK_CANCELLED' } });
  });
});

describe('the read-through cache', () => {
  const db = {} as Database;
  const cache = () => new ReadThroughCache<{ v: number; owner: string }>(db, { maxAgeMs: 60_000, stale: (c) => (c.kind === 'task' ? c.id : c.kind === 'keys' ? (x) => x.owner === c.userId : null) });
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('keeps what it loaded until a change makes it stale', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => ({ v: ++loads, owner: 'u1' });
    expect(await c.get('a', load)).toEqual({ v: 1, owner: 'u1' });
    expect(await c.get('a', load)).toEqual({ v: 1, owner: 'u1' });
    announce(db, { kind: 'task', id: 'b' });
    expect(await c.get('a', load)).toEqual({ v: 1, owner: 'u1' });
    announce(db, { kind: 'task', id: 'a' });
    expect(await c.get('a', load)).toEqual({ v: 2, owner: 'u1' });
    announce(db, { kind: 'keys', userId: 'u1' });
    expect(await c.get('a', load)).toEqual({ v: 3, owner: 'u1' });
  });

  it('does not keep, nor share, a load that overlapped a change', async () => {
    const c = cache();
    const first = deferred<{ v: number; owner: string }>();
    const before = c.get('a', () => first.promise);
    // A second reader before the change shares the load in flight.
    const sharing = c.get('a', async () => ({ v: -1, owner: 'u1' }));
    announce(db, { kind: 'task', id: 'a' });
    // A reader after the change does not get what was read before it.
    const after = c.get('a', async () => ({ v: 2, owner: 'u1' }));
    first.resolve({ v: 1, owner: 'u1' });
    expect(await before).toEqual({ v: 1, owner: 'u1' });
    expect(await sharing).toEqual({ v: 1, owner: 'u1' });
    expect(await after).toEqual({ v: 2, owner: 'u1' });
    expect(await c.get('a', async () => ({ v: 3, owner: 'u1' }))).toEqual({ v: 2, owner: 'u1' });
  });

  it('serves nothing from memory while changes may go unheard', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => ({ v: ++loads, owner: 'u1' });
    await c.get('a', load);
    announce(db, { kind: 'reset', live: false } satisfies DataChange);
    expect(await c.get('a', load)).toEqual({ v: 2, owner: 'u1' });
    expect(await c.get('a', load)).toEqual({ v: 3, owner: 'u1' });
    announce(db, { kind: 'reset', live: true });
    expect(await c.get('a', load)).toEqual({ v: 4, owner: 'u1' });
    expect(await c.get('a', load)).toEqual({ v: 4, owner: 'u1' });
  });
});

const REDIS_URL = process.env.ATELIER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
const hasRedis = await redisReachable();
if (!hasRedis && process.env.CI) throw new Error(`the cache relay test needs Redis at ${REDIS_URL}`);

describe.runIf(hasRedis)('changes relayed between nodes through Redis', () => {
  it('drops a cached entry on another node as soon as the change arrives there', async () => {
    // Two nodes: each its own database handle (the key of its announcements) and its own bus.
    const nodeA = {} as Database;
    const nodeB = {} as Database;
    const busA = createRedisEventBus(REDIS_URL);
    const busB = createRedisEventBus(REDIS_URL);
    const unlink = [relayChanges(nodeA, busA), relayChanges(nodeB, busB)];
    try {
      const onB = new ReadThroughCache<string>(nodeB, { maxAgeMs: 60_000, stale: (c) => (c.kind === 'keys' ? (owner) => owner === c.userId : null) });
      const heard: DataChange[] = [];
      busB.onSharedChange((c) => heard.push(c));
      // B is subscribed once it has said so (a live reset).
      await expect.poll(() => heard.some((c) => c.kind === 'reset' && c.live)).toBe(true);
      expect(await onB.get('secret-hash', async () => 'u1')).toBe('u1');
      expect(await onB.get('secret-hash', async () => 'not loaded')).toBe('u1');
      announce(nodeA, { kind: 'keys', userId: 'u1' });
      await expect.poll(() => heard.some((c) => c.kind === 'keys')).toBe(true);
      expect(await onB.get('secret-hash', async () => 'u1 again')).toBe('u1 again');
    } finally {
      for (const off of unlink) off();
      await Promise.all([busA.close(), busB.close()]);
    }
  });
});
