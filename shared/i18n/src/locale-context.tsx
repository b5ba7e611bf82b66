import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { DEFAULT_LANGUAGE, localePath, type Language } from './locale.ts';

interface LocaleValue {
  /** The language in use. */
  language: Language;
  /** The URL prefix in use (`null` when the URL is unprefixed English). */
  prefix: Language | null;
}

const LocaleContext = createContext<LocaleValue>({ language: DEFAULT_LANGUAGE, prefix: null });

export function LocaleProvider({ value, children }: { value: LocaleValue; children: ReactNode }) {
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

export function useLocale(): LocaleValue {
  return useContext(LocaleContext);
}

/** Returns a function that puts an absolute app path under the current language prefix. */
export function useLocalePath(): (path: string) => string {
  const { prefix } = useLocale();
  return useCallback((path: string) => localePath(prefix, path), [prefix]);
}

/** A Link whose absolute `to` keeps the current language prefix. Relative links need nothing. */
export function LocaleLink({ to, ...rest }: LinkProps & { to: string }) {
  const withPrefix = useLocalePath();
  return <Link to={to.startsWith('/') ? withPrefix(to) : to} {...rest} />;
}
