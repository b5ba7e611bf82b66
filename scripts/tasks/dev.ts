/**
 * npm run dev                    shell, every remote and the server, each with hot reload;
 *                                open http://localhost:3000
 * npm run dev -- --remote image  one remote in dev mode against the production-built shell and
 *                                the other remotes; open http://localhost:8080
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildAll } from '../lib/build.ts';
import { switchTo, writeRegistryAtomically } from '../lib/deploy.ts';
import { DEPLOY_DIR, ROOT, remotePackage, remotePackages } from '../lib/paths.ts';
import { log, main, parseArgs } from '../lib/run.ts';

const children: ChildProcess[] = [];

function start(label: string, cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const prefix = `\x1b[36m${label.padEnd(12)}\x1b[0m│ `;
  const pipe = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) =>
    stream?.on('data', (b: Buffer) => out.write(b.toString().replace(/^(?=.)/gm, prefix)));
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  children.push(child);
  return child;
}

function stopAll() {
  for (const c of children) if (c.pid && c.exitCode === null) try { process.kill(-c.pid, 'SIGTERM'); } catch { /* already gone */ }
}

const devUrl = (port: number) => `http://localhost:${port}/mf-manifest.json`;
const server = (deployDir: string, overrides: Record<string, string>) =>
  start('server', process.execPath, ['--watch-path=server/src', '--watch-path=shared', join('server', 'src', 'main.ts')], ROOT, {
    ATELIER_DEPLOY_DIR: deployDir,
    ATELIER_REMOTE_OVERRIDES: JSON.stringify(overrides),
  });

await main(async () => {
  const { flags } = parseArgs(process.argv.slice(2));
  process.on('SIGINT', () => (stopAll(), process.exit(0)));
  process.on('SIGTERM', () => (stopAll(), process.exit(0)));

  if (typeof flags.remote === 'string') {
    const remote = remotePackage(flags.remote);
    await buildAll(DEPLOY_DIR);
    server(DEPLOY_DIR, { [remote.name]: devUrl(remote.devPort) });
    start(remote.name, 'pnpm', ['exec', 'rsbuild', 'dev'], remote.dir, { ATELIER_AGAINST_PRODUCTION: '1' });
    log(`${remote.name} runs from its dev server on :${remote.devPort}; everything else is the production build`);
    log('open http://localhost:8080/');
  } else {
    // A registry of dev servers: the server serves it, the shell dev server proxies to it.
    const devDeploy = join(ROOT, '.dev', 'deploy');
    mkdirSync(devDeploy, { recursive: true });
    writeRegistryAtomically(devDeploy, { schema: 1, remotes: {} });
    for (const r of remotePackages()) switchTo(devDeploy, r.name, `${r.version}-dev`, r.mounts);
    server(devDeploy, Object.fromEntries(remotePackages().map((r) => [r.name, devUrl(r.devPort)])));
    for (const r of remotePackages()) start(r.name, 'pnpm', ['exec', 'rsbuild', 'dev'], r.dir);
    start('shell', 'pnpm', ['exec', 'rsbuild', 'dev'], join(ROOT, 'shell'));
    log('open http://localhost:3000/');
  }
  await new Promise(() => undefined);
});
