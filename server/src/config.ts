import { join, resolve } from 'node:path';
import { DEFAULT_PUBLIC_CONFIG, isHexColor, type PublicConfig } from '@atelier/config';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface ServerConfig {
  port: number;
  host: string;
  /** Where the shell and the released remotes are published; served as the site root. */
  deployDir: string;
  /** Dev mode: remote name → manifest URL, overriding the registry (a remote on its dev server). */
  remoteOverrides: Record<string, string>;
  publicConfig: PublicConfig;
}

function env(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

function parseOverrides(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  if (!parsed || typeof parsed !== 'object') throw new Error('ATELIER_REMOTE_OVERRIDES must be a JSON object');
  return parsed as Record<string, string>;
}

export function loadConfig(): ServerConfig {
  const port = Number(env('PORT') ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env('PORT')}`);
  const primary = env('ATELIER_PRIMARY_COLOR');
  if (primary && !isHexColor(primary)) throw new Error('ATELIER_PRIMARY_COLOR must be a hex colour like #4f46e5');
  return {
    port,
    host: env('HOST') ?? '0.0.0.0',
    deployDir: resolve(env('ATELIER_DEPLOY_DIR') ?? join(REPO_ROOT, 'deploy')),
    remoteOverrides: parseOverrides(env('ATELIER_REMOTE_OVERRIDES')),
    publicConfig: {
      primaryColor: primary ?? DEFAULT_PUBLIC_CONFIG.primaryColor,
      siteUrl: (env('ATELIER_SITE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
      analytics: {
        webAnalyticsId: env('ATELIER_WEB_ANALYTICS_ID') ?? null,
        russianSearchAnalyticsId: env('ATELIER_RUSSIAN_SEARCH_ANALYTICS_ID') ?? null,
        microsoftAnalyticsId: env('ATELIER_MICROSOFT_ANALYTICS_ID') ?? null,
        sessionRecordingId: env('ATELIER_SESSION_RECORDING_ID') ?? null,
        adsAccountId: env('ATELIER_ADS_ACCOUNT_ID') ?? null,
      },
      botChallengeSiteKey: env('ATELIER_BOT_CHALLENGE_SITE_KEY') ?? null,
    },
  };
}
