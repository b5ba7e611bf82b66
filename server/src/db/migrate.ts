import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
const BREAKPOINT = '--> statement-breakpoint';

export interface Migration {
  name: string;
  statements: string[];
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({
      name,
      statements: readFileSync(join(dir, name), 'utf8')
        .split(BREAKPOINT)
        .map((s) => s.trim())
        .filter(Boolean),
    }));
}

/**
 * Applies the migrations not yet recorded, all in one transaction. The advisory lock lets several
 * server nodes start against one PostgreSQL at once: the first migrates, the others wait and then
 * find nothing to do.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7301126021)`);
    await tx.execute(sql`CREATE TABLE IF NOT EXISTS atelier_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = (await tx.execute(sql`SELECT name FROM atelier_migrations`)) as unknown as { rows: { name: string }[] };
    const done = new Set(rows.rows.map((r) => r.name));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      for (const statement of m.statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO atelier_migrations (name) VALUES (${m.name})`);
      applied.push(m.name);
    }
    return applied;
  });
}
