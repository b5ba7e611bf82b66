import { LANGUAGES, type Language } from '@atelier/contract';

export { LANGUAGES };
export type { Language };

export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_COOKIE = 'atelier_lang';
/** The seed: the language cookie lasts 365 days, SameSite lax, path /. */
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Each language in its own name, for the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '简体中文',
  ru: 'Русский',
  de: 'Deutsch',
  fr: 'Français',
  ja: '日本語',
  ko: '한국어',
  es: 'Español',
  pt: 'Português',
  tr: 'Türkçe',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Splits `/ja/dashboard/image` into `{ prefix: 'ja', path: '/dashboard/image' }`. An unprefixed
 * path is English with `prefix: null`.
 */
export function splitLocalePath(pathname: string): { prefix: Language | null; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (match && isLanguage(match[1])) return { prefix: match[1], path: match[2] || '/' };
  return { prefix: null, path: pathname || '/' };
}

/** Builds a path under a prefix; `null` is the unprefixed (English) form. */
export function localePath(prefix: Language | null, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (!prefix) return clean;
  return clean === '/' ? `/${prefix}` : `/${prefix}${clean}`;
}

/** Picks the first supported language from the browser's preference list (`zh-CN` → `zh`). */
export function detectLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function readLanguageCookie(cookieHeader: string): Language | null {
  for (const part of cookieHeader.split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === LANGUAGE_COOKIE && isLanguage(v)) return v;
  }
  return null;
}
