import { compileErrors, validate } from '@readme/openapi-parser';
import { sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '../src/db/schema.ts';
import { createApi } from '../src/app.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { call } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite');
});
afterAll(() => server.close());

describe('the OpenAPI document', () => {
  it('is served at /api/openapi.json and validates', async () => {
    const res = await call(server, '/api/openapi.json');
    expect(res.status).toBe(200);
    const result = await validate(structuredClone(res.body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['operatorToken', 'sessionCookie']);
  });

  it('documents every /api route the server answers, and nothing it does not', async () => {
    const doc = (await call(server, '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)),
    );
    const api = createApi(server.services);
    const served = new Set(
      api.routes
        // Middleware and the catch-all are registered for ALL methods; real routes name one.
        .filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`),
    );
    served.delete('GET /openapi.json');
    expect(served.size).toBeGreaterThan(20);
    expect([...served].filter((r) => !documented.has(r)), 'served but undocumented').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)), 'documented but not served').toEqual([]);
  });

  it('gives every operation a summary, a success answer and the error shape for its failures', async () => {
    const doc = (await call(server, '/api/openapi.json')).body as {
      paths: Record<string, Record<string, { summary?: string; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        const statuses = Object.keys(op.responses).map(Number);
        // Success is a 2xx, or the redirect of a browser-navigated route (OAuth sign-in).
        expect(statuses.some((s) => s < 400), `${method} ${path} success`).toBe(true);
        for (const s of statuses.filter((s) => s >= 400)) {
          expect(op.responses[String(s)]!.content!['application/json']!.schema.$ref, `${method} ${path} ${s}`).toBe('#/components/schemas/Error');
        }
      }
    }
  });
});

describe('the database schema', () => {
  it('is migrated once: opening it again applies nothing', async () => {
    expect(await migrate(server.database.db)).toEqual([]);
    const applied = (await server.database.db.execute(sql`SELECT name FROM atelier_migrations ORDER BY name`)) as unknown as { rows: { name: string }[] };
    expect(applied.rows.map((r) => r.name)).toEqual(readMigrations().map((m) => m.name));
  });

  it('matches what Drizzle expects, column by column', async () => {
    const rows = (await server.database.db.execute(
      sql`SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()`,
    )) as unknown as { rows: { table_name: string; column_name: string; is_nullable: string }[] };
    const actual = new Map(rows.rows.map((r) => [`${r.table_name}.${r.column_name}`, r.is_nullable === 'YES']));
    for (const table of Object.values(tables)) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const key = `${config.name}.${column.name}`;
        expect(actual.has(key), `${key} exists`).toBe(true);
        expect(actual.get(key), `${key} nullability`).toBe(!column.notNull);
      }
      const inDatabase = [...actual.keys()].filter((k) => k.startsWith(`${config.name}.`));
      expect(inDatabase.length, `${config.name} has no columns Drizzle does not know`).toBe(config.columns.length);
    }
  });
});
