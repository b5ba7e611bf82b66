// npm run bench: every benchmark of the product, each printing its own table.
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { main, run } from '../lib/run.ts';

await main(async () => {
  await run(process.execPath, [join(ROOT, 'scripts', 'tasks', 'bench-web.ts'), ...process.argv.slice(2)]);
  await run(process.execPath, [join(ROOT, 'scripts', 'tasks', 'bench-api.ts')]);
});
