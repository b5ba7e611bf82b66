/**
 * npm run bench:web: builds for production, serves the product, and measures in headless
 * Chromium, for a few pages, what a cold visit costs: gzip JS+CSS before the page is usable,
 * sequential round trips, first paint and usable time (medians). The same pages are measured in
 * the same run built as one bundle without Module Federation, and the ratios printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { buildAll } from '../lib/build.ts';
import { DEPLOY_DIR, ROOT } from '../lib/paths.ts';
import { log, main, parseArgs, run } from '../lib/run.ts';
import { measureLoad, median, type LoadMetrics } from '../lib/web-metrics.ts';

const PAGES = ['/', '/ja/pricing', '/dashboard/image'];
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function serve(deployDir: string): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'server', 'src', 'main.ts')], {
    // Each server owns its embedded database, so the two never wait on each other's lock.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATELIER_DEPLOY_DIR: deployDir, ATELIER_DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-bench-data-')) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /running at (http:\/\/\S+?)\/?(\s|$)/.exec(out);
      if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** The monolith: the same shell built without federation, remotes bundled in, same registry for routing. */
async function buildMonolith(): Promise<string> {
  await run('pnpm', ['exec', 'rsbuild', 'build'], { cwd: join(ROOT, 'shell'), env: { ...process.env, NODE_ENV: 'production', ATELIER_MONOLITH: '1' }, quiet: true });
  const dir = mkdtempSync(join(tmpdir(), 'atelier-monolith-'));
  cpSync(join(ROOT, 'shell', 'dist-monolith'), dir, { recursive: true });
  cpSync(join(DEPLOY_DIR, 'remotes.json'), join(dir, 'remotes.json'));
  cpSync(join(DEPLOY_DIR, 'version.json'), join(dir, 'version.json'));
  return dir;
}

const kib = (b: number) => (b / 1024).toFixed(1);
const ms = (v: number) => v.toFixed(0);

await main(async () => {
  const { flags } = parseArgs(process.argv.slice(2));
  const runs = Number(flags.runs ?? 7);
  await buildAll(DEPLOY_DIR);
  const monolithDir = await buildMonolith();
  const mf = await serve(DEPLOY_DIR);
  const mono = await serve(monolithDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const results: Record<string, { mf: LoadMetrics[]; mono: LoadMetrics[] }> = {};
  try {
    for (const page of PAGES) {
      results[page] = { mf: [], mono: [] };
      // Warm-up once each (server file cache, compression), then alternate to share any drift.
      await measureLoad(browser, mf.url + page);
      await measureLoad(browser, mono.url + page);
      for (let i = 0; i < runs; i++) {
        results[page].mf.push(await measureLoad(browser, mf.url + page));
        results[page].mono.push(await measureLoad(browser, mono.url + page));
      }
    }
  } finally {
    await browser.close();
    mf.stop();
    mono.stop();
    rmSync(monolithDir, { recursive: true, force: true });
  }

  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    `Web bench: cold loads on loopback, headless Chromium, ${runs} runs per page and build (medians)`,
    '',
    row(['page', 'build', 'JS+CSS gzip KiB', 'JS/CSS files', 'round trips', 'first paint ms', 'usable ms']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
  ];
  const ratioLines = [row(['page', 'gzip MF/mono', 'round trips MF/mono', 'first paint MF/mono', 'usable MF/mono']), row(['---', '---:', '---:', '---:', '---:'])];
  const summary: Record<string, unknown> = {};
  for (const page of PAGES) {
    const agg = (list: LoadMetrics[]) => ({
      gzip: median(list.map((m) => m.jsCssGzipBytes)),
      files: median(list.map((m) => m.jsCssRequests)),
      trips: median(list.map((m) => m.roundTrips)),
      fcp: median(list.map((m) => m.firstContentfulPaintMs)),
      usable: median(list.map((m) => m.usableMs)),
    });
    const a = agg(results[page]!.mf);
    const b = agg(results[page]!.mono);
    summary[page] = { mf: a, monolith: b };
    lines.push(row([page, 'Module Federation', kib(a.gzip), String(a.files), String(a.trips), ms(a.fcp), ms(a.usable)]));
    lines.push(row([page, 'monolith', kib(b.gzip), String(b.files), String(b.trips), ms(b.fcp), ms(b.usable)]));
    ratioLines.push(row([page, (a.gzip / b.gzip).toFixed(2), (a.trips / b.trips).toFixed(2), (a.fcp / b.fcp).toFixed(2), (a.usable / b.usable).toFixed(2)]));
  }
  console.log([...lines, '', ...ratioLines].join('\n'));
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench-results', 'web.json'), JSON.stringify({ runs, summary }, null, 2));
  log('raw medians written to bench-results/web.json');
});
