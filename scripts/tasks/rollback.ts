/**
 * npm run rollback -- <remote> [--json]
 * Switches the registry back to the remote's previous version. Nothing is rebuilt or copied.
 */
import { rollback } from '../lib/deploy.ts';
import { DEPLOY_DIR } from '../lib/paths.ts';
import { main, parseArgs } from '../lib/run.ts';

await main(async () => {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  const name = positional[0];
  if (!name) throw new Error('usage: npm run rollback -- <remote> [--json]');
  const entry = rollback(DEPLOY_DIR, name);
  if (flags.json) console.log(JSON.stringify({ remote: name, version: entry.version, previous: entry.previous?.version ?? null }));
  else console.log(`rolled ${name} back to ${entry.version}`);
});
