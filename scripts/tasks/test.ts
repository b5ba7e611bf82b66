/**
 * npm test: type check, unit tests (vitest), production build, shared-version check, and the
 * Playwright e2e tests against the real server in Debian's chromium. Ends with one summary line.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildAll } from '../lib/build.ts';
import { DEPLOY_DIR, ROOT } from '../lib/paths.ts';
import { log, main, run } from '../lib/run.ts';

const RESULTS = join(ROOT, 'test-results');

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(): Counts {
  const r = JSON.parse(readFileSync(join(RESULTS, 'unit.json'), 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}

function playwrightCounts(): Counts {
  const r = JSON.parse(readFileSync(join(RESULTS, 'e2e.json'), 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  return { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped };
}

await main(async () => {
  const started = Date.now();
  rmSync(RESULTS, { recursive: true, force: true });
  const pieces: string[] = [];
  let failure: Error | null = null;
  const step = async (name: string, fn: () => Promise<void>) => {
    if (failure) return;
    log(`── ${name}`);
    try {
      await fn();
    } catch (err) {
      failure = err as Error;
      log(`\x1b[31m${name} failed\x1b[0m`);
    }
  };

  await step('type check', () => run('pnpm', ['exec', 'tsc', '-p', 'tsconfig.json']));
  await step('unit tests', async () => {
    try {
      await run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(RESULTS, 'unit.json')}`]);
    } finally {
      if (existsSync(join(RESULTS, 'unit.json'))) pieces.push('unit');
    }
  });
  await step('build', () => buildAll(DEPLOY_DIR));
  await step('shared versions', () => run(process.execPath, [join(ROOT, 'scripts', 'tasks', 'check-shared.ts')]));
  await step('e2e tests', async () => {
    try {
      await run('pnpm', ['exec', 'playwright', 'test', '-c', 'e2e/playwright.config.ts'], { env: { ...process.env, ATELIER_DEPLOY_DIR: DEPLOY_DIR } });
    } finally {
      if (existsSync(join(RESULTS, 'e2e.json'))) pieces.push('e2e');
    }
  });

  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const parts: string[] = [];
  for (const [name, counts] of [
    ['unit', pieces.includes('unit') ? vitestCounts() : null],
    ['e2e', pieces.includes('e2e') ? playwrightCounts() : null],
  ] as const) {
    if (!counts) continue;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    parts.push(`${name} ${counts.passed}/${counts.passed + counts.failed}`);
  }
  log(`${parts.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  if (failure) throw failure;
  if (total.failed > 0) throw new Error(`${total.failed} test(s) failed`);
});
