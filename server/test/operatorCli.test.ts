import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { runOperatorCli } from '../src/operator/operatorCli.ts';

/** Runs one command in-process, as `npm run atelier -- ...` would, against the given data folder. */
async function atelier(dataDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperatorCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { ATELIER_DATA_DIR: dataDir });
  const stdout = out.join('\n');
  return { code, stdout, stderr: err.join('\n'), json: () => JSON.parse(stdout) };
}

describe('operator command line without a server', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the embedded database on first use and an admin account', async () => {
    const res = await atelier(dataDir, 'users:create', 'Owner@Example.com', '--password', 'owner password', '--admin', '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ email: 'owner@example.com', role: 'admin', credits: 100, disabled: false });
    expect(existsSync(join(dataDir, 'db', 'PG_VERSION'))).toBe(true);
    // The lock is released when the command ends.
    expect(existsSync(join(dataDir, 'atelier.lock'))).toBe(false);
  }, 120_000);

  it('creates users, grants and revokes admin, adds credits and lists accounts', async () => {
    expect((await atelier(dataDir, 'users:create', 'ops@example.com')).stdout).toContain('Created ops@example.com (user, 100 credits');
    expect((await atelier(dataDir, 'admin:grant', 'ops@example.com')).stdout).toBe('ops@example.com is now an admin');
    expect((await atelier(dataDir, 'admin:revoke', 'ops@example.com', '--json')).json()).toMatchObject({ role: 'user' });
    const added = await atelier(dataDir, 'credits:add', 'ops@example.com', '250', '--reason', 'Invoice 17');
    expect(added.stdout).toBe('Added 250 credits to ops@example.com; balance 350');
    const removed = await atelier(dataDir, 'credits:add', 'ops@example.com', '-50', '--reason', 'Correction', '--json');
    expect(removed.json()).toMatchObject({ balance: 300, entry: { kind: 'adjustment', amount: -50, reason: 'Correction' } });
    const list = await atelier(dataDir, 'users:list', '--json');
    expect(list.json().users.map((u: { email: string }) => u.email)).toEqual(['ops@example.com', 'owner@example.com']);
    const table = await atelier(dataDir, 'users:list', '--search', 'OPS');
    expect(table.stdout).toMatch(/^ops@example\.com\s+user\s+active\s+300\s+\d{4}-/);
  }, 120_000);

  it('creates an API key and prints its secret once', async () => {
    const res = await atelier(dataDir, 'keys:create', 'ops@example.com', '--name', 'batch jobs');
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('API key batch jobs for ops@example.com:');
    expect(lines[1]).toMatch(/^atl_[\w-]{43}$/);
    const json = await atelier(dataDir, 'keys:create', 'ops@example.com', '--json');
    expect(json.json()).toMatchObject({ key: { name: null, status: 'active' }, secret: expect.stringMatching(/^atl_/) });
  }, 120_000);

  it('fails with a clear message and a non-zero exit on bad input', async () => {
    const cases: [string[], number, RegExp][] = [
      [['credits:add', 'ops@example.com', '10'], 2, /--reason is required/],
      [['credits:add', 'ops@example.com', 'ten', '--reason', 'x'], 2, /amount must be a non-zero whole number/],
      [['credits:add', 'ops@example.com', '0', '--reason', 'x'], 2, /non-zero/],
      [['credits:add', 'nobody@example.com', '5', '--reason', 'x'], 1, /no account with email nobody@example.com/],
      [['credits:add', 'ops@example.com', '-100000', '--reason', 'x'], 1, /Insufficient balance \(INSUFFICIENT_BALANCE\)/],
      [['users:create', 'not-an-email'], 1, /VALIDATION_FAILED[\s\S]*email/],
      [['users:create', 'ops@example.com'], 1, /already exists \(EMAIL_TAKEN\)/],
      [['users:create'], 2, /expected <email>/],
      [['users:create', 'x@example.com', '--colour', 'red'], 2, /Unknown option '--colour'/],
      [['frobnicate'], 2, /unknown command "frobnicate"/],
      [[], 2, /Usage/],
    ];
    for (const [argv, code, message] of cases) {
      const res = await atelier(dataDir, ...argv);
      expect(res.code, argv.join(' ')).toBe(code);
      expect(res.stderr + res.stdout, argv.join(' ')).toMatch(message);
    }
    const json = await atelier(dataDir, 'admin:grant', 'ghost@example.com', '--json');
    expect(json.json()).toEqual({ error: 'no account with email ghost@example.com' });
  }, 120_000);
});

describe('operator command line with the server running', () => {
  let dataDir: string;
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-cli-server-'));
    server = spawn(process.execPath, [join(REPO_ROOT, 'server', 'src', 'main.ts')], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATELIER_DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /running at (http:\/\/\S+?)\/?\s/.exec(out);
        if (m) resolve(m[1]!);
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (server.exitCode === null) {
      await new Promise<void>((resolve) => {
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes its address and a token only its own user can read', () => {
    expect(statSync(join(dataDir, 'operator.json')).mode & 0o777).toBe(0o600);
  });

  it('goes through the server, which owns the embedded database', async () => {
    const created = await atelier(dataDir, 'users:create', 'live@example.com', '--password', 'live password', '--json');
    expect(created.code).toBe(0);
    const added = await atelier(dataDir, 'credits:add', 'live@example.com', '7', '--reason', 'While running');
    expect(added.stdout).toBe('Added 7 credits to live@example.com; balance 107');
    // The running server sees the change at once: it made it.
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'live@example.com', password: 'live password' }),
    });
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ role: 'admin', credits: 107 });
  }, 120_000);

  it('runs as `node scripts/tasks/atelier.ts` with exit codes', async () => {
    const run = (...argv: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts', 'tasks', 'atelier.ts'), ...argv], {
          env: { ...process.env, ATELIER_DATA_DIR: dataDir, DATABASE_URL: '' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const list = await run('users:list', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).users[0].email).toBe('live@example.com');
    const bad = await run('admin:grant', 'ghost@example.com');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: no account with email ghost@example.com');
  }, 120_000);
});
