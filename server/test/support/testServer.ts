import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PUBLIC_CONFIG } from '@atelier/config';
import { createApp } from '../../src/app.ts';
import { DEFAULT_LIMITS, REPO_ROOT, loadGenerationSettings, loadPricing, type ServerConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import { openTestDatabase, type DatabaseKind, type TestDatabase } from './databases.ts';

export const ORIGIN = 'http://localhost';

export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    deployDir: join(tmpdir(), 'atelier-no-deploy'),
    remoteOverrides: {},
    publicConfig: { ...DEFAULT_PUBLIC_CONFIG, siteUrl: ORIGIN },
    siteUrlConfigured: true,
    dataDir: join(tmpdir(), 'atelier-no-data'),
    databaseUrl: null,
    freeCredits: 100,
    sessionTtlMs: 24 * 3600_000,
    passwordResetTtlMs: 3600_000,
    // Tests say which address they come from through X-Forwarded-For.
    trustProxy: true,
    allowedOrigins: [],
    bodyLimitBytes: 64 * 1024,
    limits: DEFAULT_LIMITS,
    mail: { smtpUrl: null, from: 'Atelier <no-reply@localhost>' },
    pricing: loadPricing(undefined),
    stripe: null,
    contentDir: join(REPO_ROOT, 'server', 'content'),
    botChallenge: null,
    oauth: { github: null, google: null },
    // No Redis, no S3, default limits: each test overrides what it exercises.
    generation: loadGenerationSettings({}),
    ...overrides,
  };
}

export interface TestServer {
  app: ReturnType<typeof createApp>;
  services: Services;
  database: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

export const OPERATOR_TOKEN = 'operator-token-for-tests';

/** The whole app on a fresh database of the given kind, with its own data folder for mail. */
export async function startTestServer(
  kind: DatabaseKind,
  overrides: Partial<ServerConfig> = {},
  serviceOptions: Pick<Parameters<typeof createServices>[2] & object, 'models' | 'storage'> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atelier-test-'));
  const database = await openTestDatabase(kind);
  const services = createServices(testConfig({ dataDir, ...overrides }), database.db, { operatorToken: OPERATOR_TOKEN, ...serviceOptions });
  return {
    app: createApp(services),
    services,
    database,
    dataDir,
    async close() {
      await services.generation.stop();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
