/**
 * The public runtime config (`/config.json`), read from the server's environment at request
 * time, so one build serves every deployment. Ids are null when not configured; a third-party
 * script loads only when its id is set.
 */
export interface PublicConfig {
  primaryColor: string;
  siteUrl: string;
  analytics: {
    /** Web analytics (gtag-style measurement id). */
    webAnalyticsId: string | null;
    /** Russian search analytics (Yandex Metrica counter id). */
    russianSearchAnalyticsId: string | null;
    /** Microsoft analytics (Clarity project id). */
    microsoftAnalyticsId: string | null;
    /** Session recording (Hotjar-style site id). */
    sessionRecordingId: string | null;
    /** Ads account id. */
    adsAccountId: string | null;
  };
  /** Bot challenge (Turnstile-compatible) site key. */
  botChallengeSiteKey: string | null;
}

export const DEFAULT_PRIMARY_COLOR = '#4f46e5';

export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  primaryColor: DEFAULT_PRIMARY_COLOR,
  siteUrl: 'http://localhost:8080',
  analytics: {
    webAnalyticsId: null,
    russianSearchAnalyticsId: null,
    microsoftAnalyticsId: null,
    sessionRecordingId: null,
    adsAccountId: null,
  },
  botChallengeSiteKey: null,
};

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

function idOrNull(value: unknown): string | null {
  return typeof value === 'string' && /^[\w.-]{1,64}$/.test(value) ? value : null;
}

/** Reads untrusted JSON into a PublicConfig; anything malformed falls back to the default. */
export function parsePublicConfig(json: unknown): PublicConfig {
  const r = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const a = (r.analytics && typeof r.analytics === 'object' ? r.analytics : {}) as Record<string, unknown>;
  return {
    primaryColor: isHexColor(r.primaryColor) ? r.primaryColor : DEFAULT_PRIMARY_COLOR,
    siteUrl: typeof r.siteUrl === 'string' && /^https?:\/\//.test(r.siteUrl) ? r.siteUrl.replace(/\/+$/, '') : DEFAULT_PUBLIC_CONFIG.siteUrl,
    analytics: {
      webAnalyticsId: idOrNull(a.webAnalyticsId),
      russianSearchAnalyticsId: idOrNull(a.russianSearchAnalyticsId),
      microsoftAnalyticsId: idOrNull(a.microsoftAnalyticsId),
      sessionRecordingId: idOrNull(a.sessionRecordingId),
      adsAccountId: idOrNull(a.adsAccountId),
    },
    botChallengeSiteKey: idOrNull(r.botChallengeSiteKey),
  };
}

function relativeLuminance(hex: string): number {
  const h = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White or near-black, whichever reads better on the primary colour (WCAG contrast ratio). */
export function contrastingText(primary: string): string {
  const l = relativeLuminance(primary);
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / 0.05;
  return onWhite >= onDark ? '#ffffff' : '#15171c';
}

/** Sets the theme's design tokens from the primary colour, keeping text on it readable. */
export function applyTheme(config: PublicConfig, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--atelier-primary', config.primaryColor);
  root.style.setProperty('--atelier-primary-contrast', contrastingText(config.primaryColor));
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', config.primaryColor);
}

// The page's config store (zustand, React) is at `@atelier/config/store`, so the server can use
// this module without either.
