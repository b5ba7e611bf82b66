import { useTranslation } from 'react-i18next';
import { formatNumber, LocaleLink, useLocale } from '@atelier/i18n';
import { useSession } from '@atelier/session';
import { NAMESPACE } from '../remote.ts';
import styles from './auth.module.css';

const SHORTCUTS = [
  { to: '/dashboard/image/create/text-to-image', key: 'textToImage' },
  { to: '/dashboard/image/create/image-to-image', key: 'imageToImage' },
  { to: '/dashboard/video/create', key: 'video' },
  { to: '/dashboard/music', key: 'music' },
  { to: '/dashboard/chat', key: 'chat' },
  { to: '/dashboard/api', key: 'api' },
] as const;

export default function DashboardHomePage() {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const user = useSession((s) => s.user);
  const credits = useSession((s) => s.credits);
  return (
    <section className={styles.page} aria-labelledby="home-title">
      <h1 id="home-title">{user?.name ? t('home.welcome', { name: user.name }) : t('home.welcomeAnonymous')}</h1>
      <p>{t('home.balance')}</p>
      <p className={styles.balance} data-testid="home-credits">
        {formatNumber(language, credits)}
      </p>
      <LocaleLink to="/pricing">{t('home.buyCredits')}</LocaleLink>
      <h2>{t('home.shortcuts')}</h2>
      <ul className={styles.cards}>
        {SHORTCUTS.map((s) => (
          <li key={s.key}>
            <LocaleLink to={s.to}>
              <strong>{t(`home.cards.${s.key}.title`)}</strong>
              <span>{t(`home.cards.${s.key}.body`)}</span>
            </LocaleLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
