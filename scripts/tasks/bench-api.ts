/**
 * npm run bench:api: throughput and latency of the business API under 64 concurrent connections:
 * task status polls (`GET /v1/videos/{id}`) and task submissions (`POST /v1/videos`), beside a
 * bare Hono route served by the same Node in the same run. The server is the real one
 * (`server/src/main.ts`) on a fresh embedded database; with Redis at REDIS_URL (or
 * 127.0.0.1:6379) submissions only queue, so no engine competes with the API for the CPU.
 * Target: polling at least half the bare route's throughput, with no errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { log, main } from '../lib/run.ts';

const CONNECTIONS = 64;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const WARMUP_MS = 1000;

interface Result {
  name: string;
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function once(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: '127.0.0.1', port, method, path, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CONNECTIONS loops, each sending its next request when the last is answered. */
async function load(name: string, port: number, method: string, path: string, headers: Record<string, string> = {}, body?: () => string, okStatus = 200): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean) => {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          const started = performance.now();
          const status = await once(agent, port, method, path, headers, body?.()).catch(() => 0);
          if (!record) continue;
          latencies.push(performance.now() - started);
          if (status !== okStatus) errors++;
        }
      }),
    );
  };
  await run(Date.now() + WARMUP_MS, false);
  const started = Date.now();
  await run(started + DURATION_MS, true);
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, errors, perSecond: Math.round(latencies.length / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function redisUp(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function json(port: number, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: `http://localhost:${port}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, cookie: res.headers.getSetCookie().find((c) => c.startsWith('atelier_session='))?.split(';')[0] };
}

const BARE_SERVER = `
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const app = new Hono();
app.get('/bare', (c) => c.json({ ok: true }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
`;

await main(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-bench-api-'));
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const withRedis = await redisUp(redisUrl);
  const apiPort = 18300 + Math.floor(Math.random() * 500);
  const barePort = apiPort + 1;
  const children: ChildProcess[] = [];
  try {
    const server = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), join(ROOT, 'server', 'src', 'main.ts')], {
      env: {
        ...process.env,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        ATELIER_DATA_DIR: dataDir,
        ATELIER_FREE_CREDITS: '100000000',
        ATELIER_API_RATE_LIMIT: '1000000000',
        ATELIER_TASK_CONCURRENCY: '1',
        ...(withRedis ? { REDIS_URL: redisUrl, ATELIER_QUEUE_NAME: `bench-${Date.now().toString(36)}` } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(server);
    const bare = spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER], { cwd: join(ROOT, 'server'), env: { ...process.env, PORT: String(barePort) }, stdio: 'inherit' });
    children.push(bare);
    await Promise.all([waitForPort(apiPort, server), waitForPort(barePort, bare)]);

    const account = await json(apiPort, 'POST', '/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'a long enough password' });
    const key = await json(apiPort, 'POST', '/api/api-keys', { name: 'bench' }, { cookie: account.cookie! });
    const auth = { authorization: `Bearer ${key.body.secret}` };
    const video = await json(apiPort, 'POST', '/v1/videos', { model: 'atelier-procedural-video-1', prompt: 'a bench of status polls', seconds: 1, size: '256x256' }, auth);
    if (video.status !== 200) throw new Error(`could not create a video: ${JSON.stringify(video.body)}`);

    log(`64 connections, ${DURATION_MS / 1000} s each after a ${WARMUP_MS / 1000} s warm-up; tasks ${withRedis ? 'queued on Redis (no worker)' : 'run in the server, one at a time'}`);
    const results = [
      await load('bare Hono route (GET /bare)', barePort, 'GET', '/bare'),
      await load('status poll (GET /v1/videos/{id})', apiPort, 'GET', `/v1/videos/${video.body.id}`, auth),
      await load('submission (POST /v1/videos)', apiPort, 'POST', '/v1/videos', { ...auth, 'content-type': 'application/json' }, () =>
        JSON.stringify({ model: 'atelier-procedural-video-1', prompt: `bench ${Math.random()}`, seconds: 1, size: '256x256' }),
      ),
    ];
    const bareRate = results[0]!.perSecond;
    console.log('\n| route | requests/s | p50 ms | p99 ms | errors | vs bare |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of results) {
      console.log(`| ${r.name} | ${r.perSecond} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${((r.perSecond / bareRate) * 100).toFixed(0)}% |`);
    }
    const poll = results[1]!;
    const met = poll.errors === 0 && poll.perSecond >= bareRate / 2;
    console.log(`\nstatus polling: ${met ? 'meets' : 'misses'} the target (at least half the bare route's throughput, no errors)`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
