export {
  LANGUAGES,
  DEFAULT_LANGUAGE,
  LANGUAGE_NAMES,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  isLanguage,
  splitLocalePath,
  localePath,
  detectLanguage,
  languageCookie,
  readLanguageCookie,
} from './locale.ts';
export type { Language } from './locale.ts';
export { LocaleProvider, useLocale, useLocalePath, LocaleLink } from './locale-context.tsx';
export { COMMON_NAMESPACE, loadCommon } from './common.ts';
export { formatNumber, formatDate } from './format.ts';
