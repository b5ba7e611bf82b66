/**
 * Scale-out: BullMQ on a real Redis, worker processes, PostgreSQL shared with the server. A worker
 * is killed (SIGKILL) in the middle of a task; the task must be retried by another worker, or
 * failed and refunded once its attempts are used up, never left processing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadGenerationSettings } from '../src/config.ts';
import { creditLedger, tasks } from '../src/db/schema.ts';
import { redisRateLimitStore } from '../src/routes/v1/rateLimit.ts';
import { DATABASES, POSTGRES_URL } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { Script, scriptedModels } from './support/scriptedEngines.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

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
const ready = hasRedis && DATABASES.includes('postgres');
if (!ready) {
  if (process.env.CI) throw new Error(`the scale-out test needs Redis at ${REDIS_URL} and PostgreSQL at ${POSTGRES_URL}`);
  console.warn('[server tests] Redis or PostgreSQL not reachable: skipping the worker test');
}

const WORKER = join(import.meta.dirname, 'support', 'scriptedWorker.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(ready)('task workers on BullMQ and Redis', () => {
  let server: TestServer;
  let user: SignedIn;
  const queueName = `atelier-test-${Date.now().toString(36)}`;
  const workers: ChildProcess[] = [];
  const output = new Map<ChildProcess, string>();

  /** A worker process; resolves once it takes jobs. */
  async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(process.execPath, [WORKER], {
      env: {
        ...process.env,
        DATABASE_URL: POSTGRES_URL,
        TEST_SCHEMA: server.database.schemaName!,
        ATELIER_DATA_DIR: server.dataDir,
        REDIS_URL,
        ATELIER_QUEUE_NAME: queueName,
        ATELIER_WORKER_LOCK_MS: '1500',
        ATELIER_TASK_CONCURRENCY: '2',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    output.set(child, '');
    child.stdout!.on('data', (b: Buffer) => output.set(child, output.get(child) + b.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', () => output.get(child)!.includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
    });
    return child;
  }

  async function taskRow(id: string) {
    const [row] = await server.database.db.select().from(tasks).where(eq(tasks.id, id));
    return row!;
  }

  async function until(id: string, check: (t: Awaited<ReturnType<typeof taskRow>>) => boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await taskRow(id);
      if (check(row)) return row;
      if (Date.now() > deadline) throw new Error(`task ${id} stuck at ${row.status} (${row.progress})`);
      await sleep(50);
    }
  }

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });

  beforeAll(async () => {
    // The server only queues (no worker of its own); workers are separate processes.
    const settings = { ...loadGenerationSettings({}), redisUrl: REDIS_URL, queueName, lockDurationMs: 1500 };
    server = await startTestServer('postgres', { generation: settings }, { models: scriptedModels(new Script()) });
    await server.services.generation.start();
    user = await signUp(server, 'scale');
  });

  // Each test brings its own workers.
  afterEach(async () => {
    await Promise.all(workers.splice(0).filter((w) => w.exitCode === null && w.signalCode === null).map(kill));
  });

  afterAll(async () => {
    await server?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`bull:${queueName}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('runs tasks in a worker process and reports progress back through Redis', async () => {
    const worker = await startWorker();
    const res = await call(server, '/api/tasks/images', { cookie: user.cookie, body: { model: 'scripted-image', prompt: 'slow:600 from a worker' } });
    expect(res.status).toBe(201);
    const seen: string[] = [];
    const off = server.services.generation.events.subscribe(user.id, (e) => seen.push(`${e.status}:${e.progress > 0 && e.progress < 100 ? 'part' : e.progress}`));
    const done = await until(res.body.id, (t) => t.status === 'completed');
    off();
    expect(done.workerId).toMatch(/^worker:/);
    expect(seen).toContain('processing:part');
    expect(seen.at(-1)).toBe('completed:100');
    const file = await call(server, `/api/tasks/${res.body.id}`, { cookie: user.cookie });
    expect((await server.app.request(file.body.outputs[0].url, { headers: { cookie: user.cookie } })).status).toBe(200);
    await kill(worker);
  }, 60_000);

  it('retries a task on another worker when its worker is killed mid-task', async () => {
    const first = await startWorker();
    const res = await call(server, '/api/tasks/videos', { cookie: user.cookie, body: { model: 'scripted-video', prompt: 'slow:2500 survive a crash' } });
    const running = await until(res.body.id, (t) => t.status === 'processing' && t.progress > 0.1);
    expect(running.attempts).toBe(1);
    await kill(first);
    expect((await taskRow(res.body.id)).status).toBe('processing');
    await startWorker();
    const done = await until(res.body.id, (t) => t.status === 'completed');
    expect(done.attempts).toBe(2);
    expect(done.workerId).not.toBe(running.workerId);
    const ledger = await server.database.db.select().from(creditLedger).where(eq(creditLedger.taskId, res.body.id)).orderBy(creditLedger.id);
    expect(ledger.map((e) => [e.kind, e.amount])).toEqual([['spend', -10]]);
  }, 60_000);

  it('fails and refunds, exactly once, a task whose worker dies on its last attempt', async () => {
    const first = await startWorker({ ATELIER_TASK_ATTEMPTS: '1' });
    const res = await call(server, '/api/tasks/music', { cookie: user.cookie, body: { model: 'scripted-music', prompt: 'slow:5000 no second chance' } });
    await until(res.body.id, (t) => t.status === 'processing' && t.progress > 0.05);
    await kill(first);
    await startWorker({ ATELIER_TASK_ATTEMPTS: '1' });
    const failed = await until(res.body.id, (t) => t.status === 'failed');
    expect(failed.errorCode).toBe('TASK_INTERRUPTED');
    await sleep(500);
    const ledger = await server.database.db.select().from(creditLedger).where(eq(creditLedger.taskId, res.body.id)).orderBy(creditLedger.id);
    expect(ledger.map((e) => [e.kind, e.amount])).toEqual([['spend', -5], ['refund', 5]]);
  }, 60_000);

  it('stops a task on its worker when the owner cancels it from a server', async () => {
    const worker = await startWorker();
    const res = await call(server, '/api/tasks/videos', { cookie: user.cookie, body: { model: 'scripted-video', prompt: 'hang until cancelled' } });
    const running = await until(res.body.id, (t) => t.status === 'processing');
    const cancelled = await call(server, `/api/tasks/${res.body.id}/cancel`, { cookie: user.cookie, body: {} });
    expect(cancelled.body.status).toBe('cancelled');
    // The worker heard the cancel through Redis and stopped its engine.
    for (let i = 0; i < 100 && !output.get(worker)!.includes('aborted:hang until cancelled'); i++) await sleep(50);
    expect(output.get(worker)).toContain('aborted:hang until cancelled');
    expect(running.workerId).toMatch(/^worker:/);
    expect((await taskRow(res.body.id)).status).toBe('cancelled');
  }, 60_000);
});

describe.runIf(ready)('rate limits on Redis', () => {
  it('counts one key’s requests across server nodes', async () => {
    const [a, b] = [redisRateLimitStore(REDIS_URL), redisRateLimitStore(REDIS_URL)];
    const key = `test-${crypto.randomUUID()}`;
    const window = Date.now();
    try {
      expect(await a.hit(key, window, 60_000)).toBe(1);
      expect(await b.hit(key, window, 60_000)).toBe(2);
      expect(await a.hit(key, window, 60_000)).toBe(3);
      // A new window starts from one again.
      expect(await b.hit(key, window + 60_000, 60_000)).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
