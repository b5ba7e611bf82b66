import type { Language } from '@atelier/contract';

const INTL_LOCALE: Record<Language, string> = {
  en: 'en-US',
  zh: 'zh-CN',
  ru: 'ru-RU',
  de: 'de-DE',
  fr: 'fr-FR',
  ja: 'ja-JP',
  ko: 'ko-KR',
  es: 'es-ES',
  pt: 'pt-BR',
  tr: 'tr-TR',
};

export function formatNumber(language: Language, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(INTL_LOCALE[language], options).format(value);
}

export function formatDate(language: Language, value: Date | number | string, options?: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(INTL_LOCALE[language], options ?? { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
