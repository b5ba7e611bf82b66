import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, RemoteModule } from '@atelier/contract';
import { COMMON_NAMESPACE, loadCommon } from '@atelier/i18n';

const shellLoaders: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
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

async function loadShell(language: Language): Promise<Record<string, unknown>> {
  return (await shellLoaders[language]()).default;
}

type Bundle = Record<string, unknown> | { default: Record<string, unknown> };
const unwrap = (b: Bundle) => ('default' in b ? (b.default as Record<string, unknown>) : b);

/**
 * The page's one i18next instance (a shared singleton, so remotes' `useTranslation` sees it).
 * Namespaces load lazily: the shell's and the common catalogue at start, a remote's when it
 * mounts, and every loaded one again before the language changes.
 */
export class ShellI18n {
  readonly instance: I18n = i18next.createInstance();
  private readonly remotes = new Map<string, RemoteModule['i18n']>();

  async init(language: Language): Promise<void> {
    await this.instance.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'en',
      ns: ['shell', COMMON_NAMESPACE],
      defaultNS: 'shell',
      resources: {},
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      returnNull: false,
      // A key missing in every language is a bug: say so, and keep a list for the e2e tests.
      saveMissing: true,
      missingKeyHandler: (_lngs, ns, key) => {
        const list = ((window as unknown as { __atelierMissingKeys?: string[] }).__atelierMissingKeys ??= []);
        list.push(`${ns}:${key}`);
        console.warn(`[atelier] missing translation ${ns}:${key}`);
      },
    });
    await this.ensure(language);
  }

  /** Loads every namespace the page uses in `language` (and English, the fallback). */
  private async ensure(language: Language): Promise<void> {
    const langs: Language[] = language === 'en' ? ['en'] : [language, 'en'];
    await Promise.all(
      langs.flatMap((lng) => [
        this.add(lng, 'shell', () => loadShell(lng)),
        this.add(lng, COMMON_NAMESPACE, () => loadCommon(lng)),
        ...[...this.remotes.values()].map((r) => this.add(lng, r.namespace, async () => unwrap(await r.load[lng]()))),
      ]),
    );
  }

  private async add(lng: Language, ns: string, load: () => Promise<Record<string, unknown>>) {
    if (this.instance.hasResourceBundle(lng, ns)) return;
    this.instance.addResourceBundle(lng, ns, await load(), true, true);
  }

  /** Called when a remote mounts: its namespace in the current language, before it renders. */
  async addRemote(i18n: RemoteModule['i18n']): Promise<void> {
    this.remotes.set(i18n.namespace, i18n);
    await this.ensure(this.language);
  }

  get language(): Language {
    return this.instance.language as Language;
  }

  async changeLanguage(language: Language): Promise<void> {
    await this.ensure(language);
    await this.instance.changeLanguage(language);
  }
}
