import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildAll } from '../lib/build.ts';
import { DEPLOY_DIR, ROOT } from '../lib/paths.ts';
import { main } from '../lib/run.ts';

await main(async () => {
  await buildAll(DEPLOY_DIR);
  const server = spawn(process.execPath, [join(ROOT, 'server', 'src', 'main.ts')], {
    stdio: 'inherit',
    env: { ...process.env, ATELIER_DEPLOY_DIR: DEPLOY_DIR },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  await new Promise<void>((resolve) => server.on('exit', () => resolve()));
});
