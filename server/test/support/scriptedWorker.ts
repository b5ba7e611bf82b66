/**
 * A task worker process for the scale-out tests: the product's worker (runTaskWorker) with the
 * scripted engines, on the test's PostgreSQL schema. Prints `ready` once it takes jobs.
 * Settings come from the environment, as for `npm run worker`, plus TEST_SCHEMA.
 */
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { runTaskWorker, stopOnSignals } from '../../src/jobs/worker.ts';
import { Script, scriptedModels } from './scriptedEngines.ts';

const database = await openDatabase({ url: process.env.DATABASE_URL!, schemaName: process.env.TEST_SCHEMA! });
const config = loadConfig(process.env);
const script = new Script();
const worker = runTaskWorker(config, database.db, { models: scriptedModels(script) });
// Tells the test which engine calls were stopped (a cancel from a server reached this process).
const told = new Set<unknown>();
setInterval(() => {
  for (const c of script.calls) if (c.aborted && !told.has(c)) told.add(c) && process.stdout.write(`aborted:${c.prompt}\n`);
}, 50).unref();
stopOnSignals(async () => {
  await worker.close();
  await database.close();
});
process.stdout.write('ready\n');
