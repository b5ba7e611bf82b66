// npm run bench: every benchmark of the product in sequence (web, engines, API), each printing its own table.
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { main, run } from '../lib/run.ts';

await main(async () => {
  const task = (name: string) => join(ROOT, 'scripts', 'tasks', `${name}.ts`);
  await run(process.execPath, [task('bench-web'), ...process.argv.slice(2)]);
  await run(process.execPath, [task('bench-engines')]);
  await run(process.execPath, [task('bench-api')]);
});
