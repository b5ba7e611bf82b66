import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { CreditPack } from '@atelier/api/schemas';
import { DEFAULT_PUBLIC_CONFIG, isHexColor, type PublicConfig } from '@atelier/config';
import type { S3Settings } from './storage/index.ts';
import { loadBackends, type BackendSettings } from './engines/adapters/settings.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const DEFAULT_PRICING_FILE = join(REPO_ROOT, 'server', 'config', 'pricing.json');

export interface LimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** Where the shell and the released remotes are published; served as the site root. */
  deployDir: string;
  /** Dev mode: remote name → manifest URL, overriding the registry (a remote on its dev server). */
  remoteOverrides: Record<string, string>;
  publicConfig: PublicConfig;
  /** Whether ATELIER_SITE_URL was set; otherwise pages use the origin each request came to. */
  siteUrlConfigured: boolean;
  /** The embedded database, the mail outbox and the operator token live here. */
  dataDir: string;
  /** PostgreSQL for scale-out; null means PGlite inside `dataDir`. */
  databaseUrl: string | null;
  /** Credits every new account starts with. */
  freeCredits: number;
  sessionTtlMs: number;
  passwordResetTtlMs: number;
  /** Only behind a proxy that sets it may X-Forwarded-For be believed for rate limits. */
  trustProxy: boolean;
  /** Origins besides the site's own allowed to make cookie-authenticated writes. */
  allowedOrigins: string[];
  /** Request body cap for `/api`, in bytes. */
  bodyLimitBytes: number;
  limits: { loginPerIp: LimitRule; loginPerAccount: LimitRule; resetPerIp: LimitRule; resetPerAccount: LimitRule; registerPerIp: LimitRule };
  mail: { smtpUrl: string | null; from: string };
  pricing: { packs: CreditPack[] };
  stripe: { secretKey: string; webhookSecret: string; apiBase: string } | null;
  /** Blog, docs and legal pages as `<section>/<slug>/<lang>.md`. */
  contentDir: string;
  /** Turnstile-compatible check on register, login and forgot-password; null: not required. */
  botChallenge: BotChallengeConfig | null;
  /** Sign-in providers; each is offered only when its client id and secret are set. */
  oauth: OAuthConfig;
  /** Tasks, engines, media storage and the business API. */
  generation: GenerationSettings;
}

export interface BotChallengeConfig {
  secret: string;
  /** Where tokens are checked (Cloudflare Turnstile's siteverify, or a compatible service). */
  verifyUrl: string;
}

export interface OAuthConfig {
  /** `webBase` serves the authorize and token endpoints, `apiBase` the user API. */
  github: { clientId: string; clientSecret: string; webBase: string; apiBase: string } | null;
  /** OpenID Connect: endpoints and keys come from the issuer's discovery document. */
  google: { clientId: string; clientSecret: string; issuer: string } | null;
}

type Env = Record<string, string | undefined>;

/** Reads settings from an environment; empty values count as unset. */
function envReader(source: Env) {
  const str = (name: string): string | undefined => (source[name] === '' ? undefined : source[name]);
  const int = (name: string, fallback: number, min = 0): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
    return n;
  };
  return { str, int };
}

function parseOverrides(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  if (!parsed || typeof parsed !== 'object') throw new Error('ATELIER_REMOTE_OVERRIDES must be a JSON object');
  return parsed as Record<string, string>;
}

const PricingFile = z.object({ packs: z.array(CreditPack).min(1) }).refine(
  (p) => new Set(p.packs.map((x) => x.id)).size === p.packs.length,
  'pack ids must be unique',
);

/** Packs from ATELIER_PRICING (inline JSON) or ATELIER_PRICING_FILE, else server/config/pricing.json. */
export function loadPricing(inline?: string, file: string = DEFAULT_PRICING_FILE) {
  const source = inline ?? readFileSync(file, 'utf8');
  const parsed = PricingFile.safeParse(JSON.parse(source));
  if (!parsed.success) throw new Error(`pricing configuration is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function loadConfig(source: Env = process.env): ServerConfig {
  const { str: env, int } = envReader(source);
  const port = Number(env('PORT') ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env('PORT')}`);
  const primary = env('ATELIER_PRIMARY_COLOR');
  if (primary && !isHexColor(primary)) throw new Error('ATELIER_PRIMARY_COLOR must be a hex colour like #4f46e5');
  const siteUrl = (env('ATELIER_SITE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const stripeKey = env('STRIPE_SECRET_KEY');
  const stripeWebhookSecret = env('STRIPE_WEBHOOK_SECRET');
  if (stripeKey && !stripeWebhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY');
  return {
    port,
    host: env('HOST') ?? '0.0.0.0',
    deployDir: resolve(env('ATELIER_DEPLOY_DIR') ?? join(REPO_ROOT, 'deploy')),
    remoteOverrides: parseOverrides(env('ATELIER_REMOTE_OVERRIDES')),
    siteUrlConfigured: env('ATELIER_SITE_URL') !== undefined,
    publicConfig: {
      primaryColor: primary ?? DEFAULT_PUBLIC_CONFIG.primaryColor,
      siteUrl,
      analytics: {
        webAnalyticsId: env('ATELIER_WEB_ANALYTICS_ID') ?? null,
        russianSearchAnalyticsId: env('ATELIER_RUSSIAN_SEARCH_ANALYTICS_ID') ?? null,
        microsoftAnalyticsId: env('ATELIER_MICROSOFT_ANALYTICS_ID') ?? null,
        sessionRecordingId: env('ATELIER_SESSION_RECORDING_ID') ?? null,
        adsAccountId: env('ATELIER_ADS_ACCOUNT_ID') ?? null,
      },
      botChallengeSiteKey: env('ATELIER_BOT_CHALLENGE_SITE_KEY') ?? null,
    },
    dataDir: resolve(env('ATELIER_DATA_DIR') ?? join(REPO_ROOT, 'data')),
    databaseUrl: env('DATABASE_URL') ?? null,
    freeCredits: int('ATELIER_FREE_CREDITS', 100),
    sessionTtlMs: int('ATELIER_SESSION_TTL_DAYS', 30, 1) * DAY,
    passwordResetTtlMs: 60 * MINUTE,
    trustProxy: env('ATELIER_TRUST_PROXY') === '1' || env('ATELIER_TRUST_PROXY') === 'true',
    allowedOrigins: (env('ATELIER_ALLOWED_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    bodyLimitBytes: int('ATELIER_BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    limits: DEFAULT_LIMITS,
    mail: { smtpUrl: env('SMTP_URL') ?? null, from: env('MAIL_FROM') ?? 'Atelier <no-reply@localhost>' },
    pricing: loadPricing(env('ATELIER_PRICING'), env('ATELIER_PRICING_FILE') ?? DEFAULT_PRICING_FILE),
    stripe:
      stripeKey && stripeWebhookSecret
        ? { secretKey: stripeKey, webhookSecret: stripeWebhookSecret, apiBase: env('STRIPE_API_BASE') ?? 'https://api.stripe.com' }
        : null,
    contentDir: resolve(env('ATELIER_CONTENT_DIR') ?? join(REPO_ROOT, 'server', 'content')),
    botChallenge: loadBotChallenge(env),
    oauth: loadOAuth(env),
    generation: loadGenerationSettings(source),
  };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function loadBotChallenge(env: (name: string) => string | undefined): BotChallengeConfig | null {
  const siteKey = env('ATELIER_BOT_CHALLENGE_SITE_KEY');
  const secret = env('ATELIER_BOT_CHALLENGE_SECRET');
  if (secret && !siteKey) throw new Error('ATELIER_BOT_CHALLENGE_SITE_KEY is required with ATELIER_BOT_CHALLENGE_SECRET');
  if (!secret) {
    // The widget still shows (the site key is public config), but nothing checks its answer.
    if (siteKey) console.warn('ATELIER_BOT_CHALLENGE_SITE_KEY is set without ATELIER_BOT_CHALLENGE_SECRET: bot-challenge answers are not verified');
    return null;
  }
  return { secret, verifyUrl: env('ATELIER_BOT_CHALLENGE_VERIFY_URL') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify' };
}

/** A provider needs both halves of its client credentials; one without the other is a mistake. */
function clientCredentials(env: (name: string) => string | undefined, prefix: 'GITHUB' | 'GOOGLE') {
  const clientId = env(`${prefix}_CLIENT_ID`);
  const clientSecret = env(`${prefix}_CLIENT_SECRET`);
  if (!clientId !== !clientSecret) throw new Error(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

function loadOAuth(env: (name: string) => string | undefined): OAuthConfig {
  const github = clientCredentials(env, 'GITHUB');
  const google = clientCredentials(env, 'GOOGLE');
  return {
    github: github && {
      ...github,
      webBase: trimSlash(env('GITHUB_OAUTH_BASE') ?? 'https://github.com'),
      apiBase: trimSlash(env('GITHUB_API_BASE') ?? 'https://api.github.com'),
    },
    // Exactly as the issuer names itself in its tokens, so not trimmed.
    google: google && { ...google, issuer: env('GOOGLE_OAUTH_ISSUER') ?? 'https://accounts.google.com' },
  };
}

/** Generous for people, tight for scripts guessing passwords. */
export const DEFAULT_LIMITS: ServerConfig['limits'] = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerAccount: { max: 10, windowMs: 15 * MINUTE },
  resetPerIp: { max: 10, windowMs: 60 * MINUTE },
  resetPerAccount: { max: 3, windowMs: 60 * MINUTE },
  registerPerIp: { max: 20, windowMs: 60 * MINUTE },
};

export interface GenerationSettings {
  /** BullMQ queue, cross-node task events and rate limits; null: all in this process. */
  redisUrl: string | null;
  /** The BullMQ queue (several instances may share one Redis under different names). */
  queueName: string;
  /** How long a BullMQ worker's hold on a job lasts without renewal: a killed worker's task is retried after it. */
  lockDurationMs: number;
  /** S3-compatible media storage; null: `<data>/media`. */
  s3: S3Settings | null;
  /** Tasks one process runs at once. */
  concurrency: number;
  /** Tries per task, counting the first (transient engine failures and lost workers). */
  maxAttempts: number;
  /** First retry delay; doubled on each further retry. */
  retryBaseMs: number;
  /** Overrides every model's own time limit. */
  timeoutMs: number | null;
  /** Progress is written and announced at most this often per task. */
  progressIntervalMs: number;
  /** A processing task whose runner has been silent this long is taken as orphaned. */
  staleAfterMs: number;
  /** With REDIS_URL: whether the server also works the queue (otherwise only `npm run worker` does). */
  workerInServer: boolean;
  /** Model id → credits, over the built-in prices. */
  modelPrices: Record<string, number>;
  /** Body cap for uploads (image-to-image pictures, multipart `/v1` requests). */
  uploadLimitBytes: number;
  /** Business-API requests per key per window. */
  rateLimit: { max: number; windowMs: number };
  /** How long an Idempotency-Key's first answer is kept for replays. */
  idempotencyTtlMs: number;
  webhooks: { timeoutMs: number; retryDelaysMs: number[] };
  /** Real backends (OpenAI-compatible, ComfyUI, AUTOMATIC1111, Replicate) and the models they serve, from ATELIER_BACKENDS(_FILE). */
  backends: BackendSettings[];
}

export function loadGenerationSettings(source: Env = process.env): GenerationSettings {
  const { str: env, int } = envReader(source);
  const bucket = env('S3_BUCKET');
  const s3: S3Settings | null = bucket
    ? {
        endpoint: env('S3_ENDPOINT') ?? null,
        bucket,
        region: env('S3_REGION') ?? 'us-east-1',
        accessKeyId: env('S3_ACCESS_KEY_ID') ?? '',
        secretAccessKey: env('S3_SECRET_ACCESS_KEY') ?? '',
        pathStyle: env('S3_FORCE_PATH_STYLE') ? env('S3_FORCE_PATH_STYLE') !== '0' && env('S3_FORCE_PATH_STYLE') !== 'false' : env('S3_ENDPOINT') !== undefined,
      }
    : null;
  if (s3 && (!s3.accessKeyId || !s3.secretAccessKey)) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET');
  const timeoutSec = env('ATELIER_TASK_TIMEOUT_SEC') === undefined ? null : int('ATELIER_TASK_TIMEOUT_SEC', 0, 1);
  return {
    redisUrl: env('REDIS_URL') ?? null,
    queueName: env('ATELIER_QUEUE_NAME') ?? 'atelier-tasks',
    lockDurationMs: int('ATELIER_WORKER_LOCK_MS', 30_000, 500),
    s3,
    concurrency: int('ATELIER_TASK_CONCURRENCY', 2, 1),
    maxAttempts: int('ATELIER_TASK_ATTEMPTS', 3, 1),
    retryBaseMs: 2000,
    timeoutMs: timeoutSec === null ? null : timeoutSec * 1000,
    progressIntervalMs: 500,
    staleAfterMs: 60_000,
    workerInServer: env('ATELIER_WORKER_IN_SERVER') === '1' || env('ATELIER_WORKER_IN_SERVER') === 'true',
    modelPrices: parseModelPrices(env('ATELIER_MODEL_PRICES')),
    uploadLimitBytes: int('ATELIER_UPLOAD_LIMIT_BYTES', 20 * 1024 * 1024, 1024),
    rateLimit: { max: int('ATELIER_API_RATE_LIMIT', 120, 1), windowMs: MINUTE },
    idempotencyTtlMs: DAY,
    webhooks: { timeoutMs: 10_000, retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 6 * 3_600_000] },
    backends: loadBackends(env('ATELIER_BACKENDS'), env('ATELIER_BACKENDS_FILE'), source),
  };
}

/** ATELIER_MODEL_PRICES: a JSON object of model id → credits. */
export function parseModelPrices(raw: string | undefined): Record<string, number> {
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('ATELIER_MODEL_PRICES must be a JSON object of model id to credits');
  for (const [id, credits] of Object.entries(parsed)) {
    if (!Number.isSafeInteger(credits) || (credits as number) < 0) throw new Error(`ATELIER_MODEL_PRICES: ${id} must be a whole number of credits >= 0`);
  }
  return parsed as Record<string, number>;
}
