import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { useSession } from '@atelier/session';
import { LanguageSwitcher } from './language-switcher.tsx';
import styles from './layout.module.css';

const LEGAL = ['terms', 'refund', 'cookies', 'privacy'] as const;

/** Public pages: header navigation, language switcher, sign-in state, footer with legal links. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  const to = useLocalePath();
  const signedIn = useSession((s) => s.status === 'authenticated');
  return (
    <>
      <a className={styles.skip} href="#main">
        {t('skipToContent')}
      </a>
      <header className={styles.header}>
        <LocaleLink to="/" className={styles.brand}>
          Atelier
        </LocaleLink>
        <nav className={styles.nav} aria-label={t('nav.primary')}>
          <NavLink to={to('/pricing')}>{t('nav.pricing')}</NavLink>
          <NavLink to={to('/docs')}>{t('nav.docs')}</NavLink>
          <NavLink to={to('/blog')}>{t('nav.blog')}</NavLink>
        </nav>
        <div className={styles.tools}>
          <LanguageSwitcher />
          {signedIn ? (
            <LocaleLink to="/dashboard" className={styles.cta}>
              {t('nav.dashboard')}
            </LocaleLink>
          ) : (
            <>
              <LocaleLink to="/auth/login">{t('nav.signIn')}</LocaleLink>
              <LocaleLink to="/auth/register" className={styles.cta}>
                {t('nav.getStarted')}
              </LocaleLink>
            </>
          )}
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <footer className={styles.footer}>
        <span>{t('footer.rights', { year: new Date().getFullYear() })}</span>
        {LEGAL.map((page) => (
          <LocaleLink key={page} to={`/legal/${page}`}>
            {t(`footer.${page}`)}
          </LocaleLink>
        ))}
      </footer>
    </>
  );
}
