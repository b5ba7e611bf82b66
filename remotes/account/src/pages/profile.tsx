import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from '@atelier/events';
import { formatNumber, LocaleLink, useLocale, useLocalePath } from '@atelier/i18n';
import { sessionStore, useSession } from '@atelier/session';
import { Button } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import { apiErrorMessage } from '../forms.ts';
import styles from './auth.module.css';

export default function ProfilePage() {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const navigate = useNavigate();
  const to = useLocalePath();
  const { user, role, credits } = useSession();
  const out = async () => {
    try {
      await sessionStore.getState().signOut();
      toast('success', t('common:success.LOGOUT_SUCCESS'));
      navigate(to('/'), { replace: true });
    } catch (err) {
      toast('error', apiErrorMessage(t, err));
    }
  };
  return (
    <section className={styles.page} aria-labelledby="profile-title">
      <h1 id="profile-title">{t('pages.profile.title')}</h1>
      <dl className={styles.facts}>
        <dt>{t('profile.email')}</dt>
        <dd data-testid="profile-email">{user?.email}</dd>
        <dt>{t('profile.name')}</dt>
        <dd>{user?.name || '—'}</dd>
        <dt>{t('profile.role')}</dt>
        <dd>{t(`profile.roles.${role ?? 'user'}`)}</dd>
        <dt>{t('profile.credits')}</dt>
        <dd>{formatNumber(language, credits)}</dd>
      </dl>
      <div className={styles.actions}>
        <LocaleLink to={`/${ROUTES.updatePassword}`}>{t('profile.changePassword')}</LocaleLink>
        <Button onClick={out}>{t('auth.signOut')}</Button>
      </div>
    </section>
  );
}
