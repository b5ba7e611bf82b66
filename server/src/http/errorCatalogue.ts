import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorCode } from '@atelier/api';
import { DEFAULT_LANGUAGE, LANGUAGES, detectLanguage, readLanguageCookie, type Language } from '@atelier/i18n/locale';

/**
 * The catalogue's messages in every language, read from the same files the front end ships, so
 * an API client (or curl) reads the message the dashboard would show.
 */
const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.resolve('@atelier/i18n/locale'))), 'locales');
const messages = new Map<Language, Record<string, string>>(
  LANGUAGES.map((lang) => {
    const file = JSON.parse(readFileSync(join(LOCALES_DIR, `${lang}.json`), 'utf8')) as { errors: Record<string, string> };
    return [lang, file.errors];
  }),
);

export function errorMessage(code: ErrorCode, language: Language = DEFAULT_LANGUAGE): string {
  return messages.get(language)?.[code] ?? messages.get(DEFAULT_LANGUAGE)?.[code] ?? code;
}

/** The language cookie the front end sets wins; then Accept-Language; then English. */
export function requestLanguage(headers: { cookie?: string | undefined; acceptLanguage?: string | undefined }): Language {
  const fromCookie = headers.cookie ? readLanguageCookie(headers.cookie) : null;
  if (fromCookie) return fromCookie;
  const preferred = (headers.acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter(Boolean);
  return detectLanguage(preferred);
}
