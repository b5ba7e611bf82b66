import { join } from 'node:path';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import type { OAuthProviderId } from '@atelier/api/schemas';
import { createBotChallenge, type BotChallenge } from './domain/botChallenge.ts';
import { createContentIndex, type ContentIndex } from './domain/content.ts';
import { LoginGuard } from './domain/loginGuard.ts';
import { createOAuthProviders, type OAuthProvider } from './domain/oauthProviders.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { configuredModels, type ModelRegistry } from './engines/models.ts';
import { Generation } from './jobs/generation.ts';
import { createMediaStorage, type MediaStorage } from './storage/index.ts';

/** What the routes work with; built once at start (or per test). */
export interface Services {
  config: ServerConfig;
  db: Database;
  mailer: Mailer;
  loginGuard: LoginGuard;
  /**
   * Bearer token that acts as an admin on /api/admin: the operator command line uses it to reach
   * a running server. Null: no operator access over HTTP.
   */
  operatorToken: string | null;
  /** Checks the bot-challenge token on the password forms (a no-op when not configured). */
  botChallenge: BotChallenge;
  /** Sign-in providers with credentials configured. */
  oauthProviders: Map<OAuthProviderId, OAuthProvider>;
  /** Blog, docs and legal pages, for the API and the deploy root alike. */
  content: ContentIndex;
  /** Models, tasks, media storage, task events and webhooks. Background work starts with `generation.start()`. */
  generation: Generation;
}

export function createServices(config: ServerConfig, db: Database, options: { operatorToken?: string | null; mailer?: Mailer; models?: ModelRegistry; storage?: MediaStorage } = {}): Services {
  return {
    config,
    db,
    mailer: options.mailer ?? createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, outboxDir: outboxDirIn(config.dataDir) }),
    loginGuard: new LoginGuard(config.limits),
    operatorToken: options.operatorToken ?? null,
    botChallenge: createBotChallenge(config.botChallenge),
    oauthProviders: createOAuthProviders(config.oauth),
    content: createContentIndex(config.contentDir),
    generation: new Generation({
      db,
      models:
        options.models ?? configuredModels(config.generation, { contentDir: config.contentDir }),
      storage: options.storage ?? createMediaStorage({ dataDir: config.dataDir, s3: config.generation.s3 }),
      settings: config.generation,
      embedded: config.databaseUrl === null,
    }),
  };
}

export function outboxDirIn(dataDir: string): string {
  return join(dataDir, 'outbox');
}
