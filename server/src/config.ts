import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { CreditPack } from '@atelier/api';
import { DEFAULT_PUBLIC_CONFIG, isHexColor, type PublicConfig } from '@atelier/config';

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
}

function env(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

function intEnv(name: string, fallback: number, min = 0): number {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return n;
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
export function loadPricing(inline = env('ATELIER_PRICING'), file = env('ATELIER_PRICING_FILE') ?? DEFAULT_PRICING_FILE) {
  const source = inline ?? readFileSync(file, 'utf8');
  const parsed = PricingFile.safeParse(JSON.parse(source));
  if (!parsed.success) throw new Error(`pricing configuration is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function loadConfig(): ServerConfig {
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
    freeCredits: intEnv('ATELIER_FREE_CREDITS', 100),
    sessionTtlMs: intEnv('ATELIER_SESSION_TTL_DAYS', 30, 1) * DAY,
    passwordResetTtlMs: 60 * MINUTE,
    trustProxy: env('ATELIER_TRUST_PROXY') === '1' || env('ATELIER_TRUST_PROXY') === 'true',
    allowedOrigins: (env('ATELIER_ALLOWED_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    bodyLimitBytes: intEnv('ATELIER_BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    limits: DEFAULT_LIMITS,
    mail: { smtpUrl: env('SMTP_URL') ?? null, from: env('MAIL_FROM') ?? 'Atelier <no-reply@localhost>' },
    pricing: loadPricing(),
    stripe:
      stripeKey && stripeWebhookSecret
        ? { secretKey: stripeKey, webhookSecret: stripeWebhookSecret, apiBase: env('STRIPE_API_BASE') ?? 'https://api.stripe.com' }
        : null,
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
