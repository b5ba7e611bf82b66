import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import type { RegistryEntry, RemoteRegistry } from '@atelier/contract';
import { DEPLOY_DIR, NODE, ROOT } from './paths.ts';

/** One real server on its own copy of the deploy root, so a test can release or break remotes. */
export class Site {
  readonly deployDir: string;
  url = '';
  private server: ChildProcess | null = null;

  constructor() {
    this.deployDir = mkdtempSync(join(tmpdir(), 'atelier-e2e-'));
    cpSync(DEPLOY_DIR, this.deployDir, { recursive: true });
  }

  async start(): Promise<void> {
    const server = spawn(NODE, [join(ROOT, 'server', 'src', 'main.ts')], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATELIER_DEPLOY_DIR: this.deployDir },
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

export const test = base.extend<{ site: Site }>({
  site: async ({}, use) => {
    const site = new Site();
    await site.start();
    await use(site);
    await site.stop();
  },
});
export { expect } from '@playwright/test';
