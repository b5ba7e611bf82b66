import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';
import { migrate } from './migrate.ts';

/** A transaction is a Database too, so domain functions take either and compose. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; otherwise PGlite. */
  url?: string | null;
  /** PGlite's folder, or 'memory://' for a throwaway database. */
  pgliteDir?: string;
  /** PostgreSQL only: work inside this schema (tests give each file its own). */
  schemaName?: string;
}

/** Opens the database and brings it to the newest migration. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.url ? await openPostgres(options.url, options.schemaName) : await openPglite(options.pgliteDir ?? 'memory://');
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

async function openPglite(dir: string): Promise<DatabaseHandle> {
  if (dir !== 'memory://') mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir === 'memory://' ? undefined : dir);
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return { db, kind: 'pglite', close: () => client.close() };
}

async function openPostgres(url: string, schemaName: string | undefined): Promise<DatabaseHandle> {
  if (schemaName !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schemaName)) throw new Error(`bad schema name ${schemaName}`);
  if (schemaName) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schemaName}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schemaName ? { options: `-c search_path=${schemaName}` } : {}),
  });
  // An idle client losing its connection must not crash the server; the pool replaces it.
  pool.on('error', (err) => console.error('database pool error:', err.message));
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return { db, kind: 'postgres', close: () => pool.end() };
}

/** The embedded database's folder inside the data folder. */
export function pgliteDirIn(dataDir: string): string {
  return join(dataDir, 'db');
}
