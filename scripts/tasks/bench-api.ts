/**
 * npm run bench:api: throughput and latency of the business API under 64 concurrent connections:
 * task status polls (`GET /v1/videos/{id}`) and task submissions (`POST /v1/videos`), beside a
 * bare Hono route served by the same Node and HTTP stack (@hono/node-server) in the same run, each
 * measured for several seconds after a warm-up, with the same client and connection count. The
 * server is the real one (`server/src/main.ts`) on a fresh embedded database; with Redis at
 * REDIS_URL (or 127.0.0.1:6379) submissions only queue, so no engine competes with the API for
 * the CPU. Only answers with the expected status count as throughput; anything else is an error.
 * Target: polling at least half the bare route's throughput, with no errors.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { log, main } from '../lib/run.ts';

const CONNECTIONS = 64;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const WARMUP_MS = 1000;

/**
 * With two CPUs or more (Linux), the load generator runs on the first and each server on the
 * second: a server has one core to itself, as a Node process in production does, and the
 * scheduler does not bounce client and server on one CPU, which costs more than the request.
 */
const PINNED = process.platform === 'linux' && availableParallelism() >= 2 && spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;
const onServerCpu = (command: string[]): [string, string[]] => (PINNED ? ['taskset', ['-c', '1', ...command]] : [command[0]!, command.slice(1)]);

interface Result {
  name: string;
  /** Answered with the expected status: errors are counted apart and are not throughput. */
  ok: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * One keep-alive HTTP/1.1 connection that sends a request when the last is answered. Raw bytes on
 * a socket rather than node:http's client: the load generator shares this machine's CPUs with the
 * server, and must cost much less per request than what it measures (node:http's client costs
 * more than the bare route itself, which would cap the bare route's throughput, not measure it).
 */
class Connection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (err: Error) => void } | null = null;
  closed = false;

  constructor(port: number) {
    this.socket = createConnection({ host: '127.0.0.1', port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = (err: Error) => {
      this.closed = true;
      this.waiting?.reject(err);
      this.waiting = null;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  /** Sends one request and resolves with the answer's status once its whole body is in. */
  send(request: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  private parse(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.toString('latin1', 0, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let size: number;
    if (length) size = end + 4 + Number(length[1]);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buffer.indexOf('0\r\n\r\n', end + 4);
      if (last < 0) return;
      size = last + 5;
    } else size = end + 4;
    if (this.buffer.length < size) return;
    this.buffer = this.buffer.subarray(size);
    const waiting = this.waiting;
    this.waiting = null;
    waiting.resolve(Number(head.slice(9, 12)));
  }

  close(): void {
    this.socket.destroy();
  }
}

function requestBytes(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
  const all = { host: `127.0.0.1:${port}`, ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.from(body === undefined ? head : head + body);
}

/** CONNECTIONS connections, each sending its next request as soon as the last is answered. */
async function load(name: string, port: number, method: string, path: string, headers: Record<string, string> = {}, body?: () => string, okStatus = 200): Promise<Result> {
  const fixed = body ? null : requestBytes(port, method, path, headers);
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean) => {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        let connection = new Connection(port);
        while (Date.now() < until) {
          if (connection.closed) connection = new Connection(port);
          const started = performance.now();
          const status = await connection.send(fixed ?? requestBytes(port, method, path, headers, body!())).catch(() => 0);
          if (!record) continue;
          if (status === okStatus) latencies.push(performance.now() - started);
          else errors++;
        }
        connection.close();
      }),
    );
  };
  await run(Date.now() + WARMUP_MS, false);
  const started = Date.now();
  await run(started + DURATION_MS, true);
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, ok: latencies.length, errors, perSecond: Math.round(latencies.length / elapsed), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
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
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const server = spawn(...onServerCpu([process.execPath, ...profile, join(ROOT, 'server', 'src', 'main.ts')]), {
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
    const bare = spawn(...onServerCpu([process.execPath, '--input-type=module', '-e', BARE_SERVER]), { cwd: join(ROOT, 'server'), env: { ...process.env, PORT: String(barePort) }, stdio: 'inherit' });
    children.push(bare);
    await Promise.all([waitForPort(apiPort, server), waitForPort(barePort, bare)]);

    const account = await json(apiPort, 'POST', '/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'a long enough password' });
    const key = await json(apiPort, 'POST', '/api/api-keys', { name: 'bench' }, { cookie: account.cookie! });
    const auth = { authorization: `Bearer ${key.body.secret}` };
    const video = await json(apiPort, 'POST', '/v1/videos', { model: 'atelier-procedural-video-1', prompt: 'a bench of status polls', seconds: 1, size: '256x256' }, auth);
    if (video.status !== 200) throw new Error(`could not create a video: ${JSON.stringify(video.body)}`);

    log(
      `64 connections, ${DURATION_MS / 1000} s each after a ${WARMUP_MS / 1000} s warm-up; tasks ${withRedis ? 'queued on Redis (no worker)' : 'run in the server, one at a time'}; ` +
        (PINNED ? 'client on CPU 0, server on CPU 1' : 'no CPU pinning'),
    );
    const results = [
      await load('bare Hono route (GET /bare)', barePort, 'GET', '/bare'),
      await load('status poll (GET /v1/videos/{id})', apiPort, 'GET', `/v1/videos/${video.body.id}`, auth),
      await load('submission (POST /v1/videos)', apiPort, 'POST', '/v1/videos', { ...auth, 'content-type': 'application/json' }, () =>
        JSON.stringify({ model: 'atelier-procedural-video-1', prompt: `bench ${Math.random()}`, seconds: 1, size: '256x256' }),
      ),
    ];
    const bareRate = results[0]!.perSecond;
    console.log('\n| route | answered OK per s | p50 ms | p99 ms | errors | vs bare |');
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
