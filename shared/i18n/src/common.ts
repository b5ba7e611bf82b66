import type { Language } from '@atelier/contract';

/** The namespace holding the seed's error catalogue and success messages. */
export const COMMON_NAMESPACE = 'common';

const loaders: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('./locales/en.json'),
  zh: () => import('./locales/zh.json'),
  ru: () => import('./locales/ru.json'),
  de: () => import('./locales/de.json'),
  fr: () => import('./locales/fr.json'),
  ja: () => import('./locales/ja.json'),
  ko: () => import('./locales/ko.json'),
  es: () => import('./locales/es.json'),
  pt: () => import('./locales/pt.json'),
  tr: () => import('./locales/tr.json'),
};

export async function loadCommon(language: Language): Promise<Record<string, unknown>> {
  return (await loaders[language]()).default;
}
