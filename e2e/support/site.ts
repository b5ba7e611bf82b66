import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import type { RegistryEntry, RemoteRegistry } from '@atelier/contract';
import { DEPLOY_DIR, NODE, ROOT } from './paths.ts';

/** One real server on its own copy of the deploy root, so a test can release or break remotes. */
export class Site {
  readonly deployDir: string;
  readonly dataDir: string;
  url = '';
  private server: ChildProcess | null = null;
  private readonly env: Record<string, string>;

  constructor(env: Record<string, string> = {}) {
    this.deployDir = mkdtempSync(join(tmpdir(), 'atelier-e2e-'));
    this.dataDir = mkdtempSync(join(tmpdir(), 'atelier-e2e-data-'));
    this.env = env;
    cpSync(DEPLOY_DIR, this.deployDir, { recursive: true });
  }

  async start(): Promise<void> {
    const server = spawn(NODE, [join(ROOT, 'server', 'src', 'main.ts')], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATELIER_DEPLOY_DIR: this.deployDir, ATELIER_DATA_DIR: this.dataDir, ...this.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.server = server;
    this.url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /running at (http:\/\/\S+?)\/?(\s|$)/.exec(out);
        if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (s && s.exitCode === null) {
      await new Promise<void>((r) => {
        s.once('exit', () => r());
        s.kill('SIGTERM');
      });
    }
    rmSync(this.deployDir, { recursive: true, force: true });
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private account: Promise<{ email: string; password: string; cookie: { name: string; value: string } }> | null = null;

  /**
   * A real account on this server (registered once, through the API, like the sign-up form)
   * and its session cookie.
   */
  signedInAccount() {
    this.account ??= (async () => {
      const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
      const password = 'a long e2e passphrase';
      const res = await fetch(`${this.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: this.url },
        body: JSON.stringify({ email, password, name: 'Ada Tester' }),
      });
      if (!res.ok) throw new Error(`register answered ${res.status}: ${await res.text()}`);
      const raw = res.headers.getSetCookie().find((c) => c.startsWith('atelier_session='));
      if (!raw) throw new Error('register set no session cookie');
      const [name, value] = raw.split(';')[0]!.split('=') as [string, string];
      return { email, password, cookie: { name, value } };
    })();
    return this.account;
  }

  /** The password-reset link in the newest message of the outbox (no SMTP here), on this site. */
  async latestMailLink(): Promise<string> {
    const outbox = join(this.dataDir, 'outbox');
    for (let i = 0; i < 50; i++) {
      const files = existsSync(outbox) ? readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
      if (files.length) {
        const newest = files.map((f) => join(outbox, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
        // Quoted-printable: undo soft line breaks and =XX escapes.
        const text = readFileSync(newest, 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        const m = /https?:\/\/[^\s"<>]*?(\/(?:[a-z]{2}\/)?auth\/update-password\?token=[\w-]+)/.exec(text);
        if (m) return this.url + m[1];
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no password-reset mail in the outbox');
  }

  registry(): RemoteRegistry {
    return JSON.parse(readFileSync(join(this.deployDir, 'remotes.json'), 'utf8')) as RemoteRegistry;
  }

  /** Edits one registry entry the way a release would: write then rename. */
  setRemote(name: string, patch: Partial<RegistryEntry>): void {
    const reg = this.registry();
    reg.remotes[name] = { ...reg.remotes[name]!, ...patch };
    const tmp = join(this.deployDir, 'remotes.json.tmp');
    writeFileSync(tmp, JSON.stringify(reg));
    cpSync(tmp, join(this.deployDir, 'remotes.json'));
    rmSync(tmp);
  }

  /** Copies a built remote into remotes/<name>/<version>/ of this site. */
  publish(name: string, version: string, fromDir: string): RegistryEntry['entry'] {
    cpSync(fromDir, join(this.deployDir, 'remotes', name, version), { recursive: true });
    return `/remotes/${name}/${version}/mf-manifest.json`;
  }

  versionEntry(name: string, version: string) {
    return { version, entry: `/remotes/${name}/${version}/mf-manifest.json`, releasedAt: new Date().toISOString() };
  }
}

async function runSite(env: Record<string, string>, use: (site: Site) => Promise<void>) {
  const site = new Site(env);
  await site.start();
  try {
    await use(site);
  } finally {
    await site.stop();
  }
}

interface SiteOptions {
  /** Extra environment for the server, e.g. analytics ids: `test.use({ siteEnv: {...} })`. */
  siteEnv: Record<string, string>;
}

interface TestOptions {
  /** Whether the browser starts signed in to the site's test account (default true). */
  signedIn: boolean;
}

/** Puts the site's test account's session cookie into the browser context. */
async function signIn(site: Site, context: import('@playwright/test').BrowserContext) {
  const { cookie } = await site.signedInAccount();
  await context.addCookies([{ ...cookie, url: site.url, httpOnly: true, sameSite: 'Lax' }]);
}

/**
 * Each test gets its own server on its own copy of the deploy root: for tests that release,
 * roll back, break remotes or otherwise change what the server serves.
 */
export const test = base.extend<{ site: Site } & TestOptions, SiteOptions>({
  siteEnv: [{}, { option: true, scope: 'worker' }],
  signedIn: [true, { option: true }],
  site: async ({ siteEnv, signedIn, context }, use) =>
    runSite(siteEnv, async (site) => {
      if (signedIn) await signIn(site, context);
      await use(site);
    }),
});

/**
 * Tests that only read share one server per worker (and per `siteEnv`): starting the server
 * and its database for every test would dominate the suite's time.
 */
export const testOnSharedSite = base.extend<{ site: Site } & TestOptions, SiteOptions & { sharedSite: Site }>({
  siteEnv: [{}, { option: true, scope: 'worker' }],
  signedIn: [true, { option: true }],
  sharedSite: [async ({ siteEnv }, use) => runSite(siteEnv, use), { scope: 'worker' }],
  site: async ({ sharedSite, signedIn, context }, use) => {
    if (signedIn) await signIn(sharedSite, context);
    await use(sharedSite);
  },
});
export { expect } from '@playwright/test';
