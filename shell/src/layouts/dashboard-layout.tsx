import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatNumber, LocaleLink, useLocale, useLocalePath } from '@atelier/i18n';
import { useSession } from '@atelier/session';
import { RequireLogin } from './require-login.tsx';
import { UserMenu } from './user-menu.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import styles from './layout.module.css';

/** The seed's dashboard navigation; titles come from the shell namespace. */
const NAV = [
  { to: '/dashboard', key: 'dashboard', end: true },
  {
    to: '/dashboard/image',
    key: 'image',
    end: true,
    children: [
      { to: '/dashboard/image/create/text-to-image', key: 'textToImage' },
      { to: '/dashboard/image/create/image-to-image', key: 'imageToImage' },
    ],
  },
  { to: '/dashboard/video', key: 'video' },
  { to: '/dashboard/music', key: 'music' },
  { to: '/dashboard/chat', key: 'chat' },
  { to: '/dashboard/api', key: 'api' },
] as const;

export function DashboardLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  const to = useLocalePath();
  const { language } = useLocale();
  const credits = useSession((s) => s.credits);
  return (
    <div className={styles.dashboard}>
      <a className={styles.skip} href="#main">
        {t('skipToContent')}
      </a>
      <aside className={styles.side}>
        <LocaleLink to="/" className={styles.brand}>
          Atelier
        </LocaleLink>
        <nav aria-label={t('nav.dashboardNav')}>
          <ul>
            {NAV.map((item) => (
              <li key={item.key}>
                <NavLink to={to(item.to)} end={'end' in item ? item.end : false}>
                  {t(`nav.${item.key}`)}
                </NavLink>
                {'children' in item ? (
                  <ul>
                    {item.children.map((c) => (
                      <li key={c.key}>
                        <NavLink to={to(c.to)}>{t(`nav.${c.key}`)}</NavLink>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div>
        <div className={styles.topbar}>
          <span className={styles.credits} data-testid="shell-credits">
            {t('credits', { count: credits, formatted: formatNumber(language, credits) })}
          </span>
          <LanguageSwitcher />
          <UserMenu />
        </div>
        <main id="main" className={styles.main} tabIndex={-1}>
          <RequireLogin>{children}</RequireLogin>
        </main>
      </div>
    </div>
  );
}
