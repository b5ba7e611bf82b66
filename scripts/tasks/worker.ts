/**
 * npm run worker: a generation worker for scale-out. Needs DATABASE_URL (PostgreSQL shared with
 * the servers) and REDIS_URL (the job queue); media go to S3 when configured, else <data>/media.
 */
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { runTaskWorker, stopOnSignals } from '../../server/src/jobs/worker.ts';
import { log, main } from '../lib/run.ts';

await main(async () => {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required: a worker shares PostgreSQL with the servers (the embedded database has one owner)');
  if (!config.generation.redisUrl) throw new Error('REDIS_URL is required: workers take their jobs from Redis');
  const database = await openDatabase({ url: config.databaseUrl });
  const worker = runTaskWorker(config, database.db);
  log(`worker running: queue ${config.generation.queueName}, ${config.generation.concurrency} at a time, media in ${config.generation.s3 ? `s3://${config.generation.s3.bucket}` : 'the data folder'}`);
  stopOnSignals(async () => {
    await worker.close();
    await database.close();
  });
  await new Promise<never>(() => {});
});
