/**
 * A task worker process for scale-out (`npm run worker`): takes jobs from the BullMQ queue on
 * REDIS_URL and runs them against the shared PostgreSQL (DATABASE_URL) and media storage (S3, or
 * a folder every node mounts). Run as many as the machines allow; each runs
 * ATELIER_TASK_CONCURRENCY tasks at once.
 */
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { configuredModels, type ModelRegistry } from '../engines/models.ts';
import { createMediaStorage, type MediaStorage } from '../storage/index.ts';
import { startTaskWorker } from './bullQueue.ts';
import { createRedisEventBus, relayChanges } from './taskEvents.ts';

export interface RunningWorker {
  close(): Promise<void>;
}

export function runTaskWorker(config: ServerConfig, db: Database, options: { models?: ModelRegistry; storage?: MediaStorage } = {}): RunningWorker {
  const settings = config.generation;
  if (!settings.redisUrl) throw new Error('REDIS_URL is required: workers take their jobs from Redis');
  const events = createRedisEventBus(settings.redisUrl);
  const models =
    options.models ?? configuredModels(settings, { contentDir: config.contentDir });
  const storage = options.storage ?? createMediaStorage({ dataDir: config.dataDir, s3: settings.s3 });
  // The servers' caches of task status hear of what this worker changes.
  const unrelay = relayChanges(db, events);
  const worker = startTaskWorker(
    { db, models, storage, events, settings },
    { redisUrl: settings.redisUrl, queueName: settings.queueName, concurrency: settings.concurrency, lockDurationMs: settings.lockDurationMs },
  );
  return {
    async close() {
      await worker.close();
      unrelay();
      await events.close();
    },
  };
}

/** Stops cleanly on SIGINT/SIGTERM: running tasks go back to the queue. */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(1), 30_000).unref();
      void stop().then(() => process.exit(0));
    });
  }
}
