import { createContext, useContext } from 'react';
import type { Language, NotifyEvent } from '@atelier/contract';
import { notify } from '@atelier/events';
import { languageCookie } from '@atelier/i18n';
import type { ShellI18n } from './i18n.ts';

export interface ShellServices {
  i18n: ShellI18n;
  /** Loads every namespace in use for `language`, switches, and remembers the choice. */
  changeLanguage(language: Language): Promise<void>;
  notify(event: NotifyEvent): void;
}

export function createShellServices(i18n: ShellI18n): ShellServices {
  return {
    i18n,
    async changeLanguage(language) {
      document.cookie = languageCookie(language, window.location.protocol === 'https:');
      await i18n.changeLanguage(language);
    },
    notify,
  };
}

const ShellContext = createContext<ShellServices | null>(null);
export const ShellProvider = ShellContext.Provider;

export function useShell(): ShellServices {
  const s = useContext(ShellContext);
  if (!s) throw new Error('ShellProvider is missing');
  return s;
}
