import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase, pgliteDirIn } from './db/client.ts';
import { randomToken } from './domain/secrets.ts';
import { claimDataDir } from './operator/dataDirLock.ts';
import { removeOperatorAccess, writeOperatorAccess } from './operator/operatorAccess.ts';
import { createServices } from './services.ts';
import { mediaDirIn } from './storage/index.ts';

const config = loadConfig();
// PostgreSQL is shared by design; only the embedded database needs an exclusive owner.
let releaseDataDir: () => void = () => {};
try {
  if (!config.databaseUrl) releaseDataDir = await claimDataDir(config.dataDir, 'server');
} catch (err) {
  console.error(`Atelier cannot start: ${(err as Error).message}`);
  process.exit(1);
}
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: pgliteDirIn(config.dataDir) });
const operatorToken = randomToken();
const services = createServices(config, database.db, { operatorToken });
const app = createApp(services);
// Tasks left behind by a previous run are rescued before new ones start.
await services.generation.start();

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const local = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  writeOperatorAccess(config.dataDir, { pid: process.pid, url: `http://${local}:${info.port}`, token: operatorToken });
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`Atelier is running at http://${shown}:${info.port}/`);
  console.log(`Database: ${database.kind === 'pglite' ? `embedded (${pgliteDirIn(config.dataDir)})` : 'PostgreSQL (DATABASE_URL)'}`);
  const gen = config.generation;
  console.log(
    `Tasks: ${gen.redisUrl ? `BullMQ queue "${gen.queueName}" on REDIS_URL${gen.workerInServer ? ', also worked here' : ' (start workers with: npm run worker)'}` : `in this process, ${gen.concurrency} at a time`}; media: ${gen.s3 ? `s3://${gen.s3.bucket}` : mediaDirIn(config.dataDir)}`,
  );
  if (services.mailer.outboxDir) {
    console.log(`Email: no SMTP_URL, so messages are written to ${services.mailer.outboxDir}; show the newest with: npm run atelier -- mail:latest`);
  }
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), 5000).unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive connections would otherwise hold close() open.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  await closed;
  removeOperatorAccess(config.dataDir);
  await services.generation.stop();
  await database.close();
  releaseDataDir();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
