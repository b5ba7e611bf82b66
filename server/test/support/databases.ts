import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';

/**
 * Every server test runs against both databases. PostgreSQL comes from ATELIER_TEST_DATABASE_URL
 * (default: the CI service at 127.0.0.1:5432, database `test`); each test file works in a schema of
 * its own, dropped at the end, so parallel files and runs never see each other's rows.
 */
// Booting PGlite (WebAssembly PostgreSQL) takes seconds, more on a busy two-core CI machine than
// vitest's 10 s hook default allows.
vi.setConfig({ hookTimeout: 120_000 });

export const POSTGRES_URL = process.env.ATELIER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseKind = 'pglite' | 'postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (err) {
    // A fresh cluster has no `test` database yet: create it through the default one.
    if ((err as { code?: string }).code !== '3D000') return false;
    const url = new URL(POSTGRES_URL);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`).catch(() => undefined);
      return true;
    } catch {
      return false;
    } finally {
      await admin.end().catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

const hasPostgres = await postgresReachable();
if (!hasPostgres) {
  // CI provides PostgreSQL: a missing one there is a failure, not a skip.
  if (process.env.CI) throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}`);
  console.warn(`[server tests] PostgreSQL not reachable at ${POSTGRES_URL}: running on PGlite only`);
}

export const DATABASES: DatabaseKind[] = hasPostgres ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and, on PostgreSQL, drops the file's schema. */
  dispose(): Promise<void>;
  /** PostgreSQL: the file's schema, for another process (a worker) to open the same tables. */
  schemaName?: string;
}

export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ pgliteDir: 'memory://' });
    return { ...handle, dispose: () => handle.close() };
  }
  const schemaName = `test_${randomBytes(6).toString('hex')}`;
  const handle = await openDatabase({ url: POSTGRES_URL, schemaName });
  return {
    ...handle,
    schemaName,
    async dispose() {
      await handle.close();
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
