import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from '@atelier/events';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { sessionStore, useSession } from '@atelier/session';
import { Button } from '@atelier/ui';
import styles from './layout.module.css';

/** Who is signed in, their pages, and signing out. */
export function UserMenu() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const to = useLocalePath();
  const user = useSession((s) => s.user);
  const isAdmin = useSession((s) => s.role === 'admin');
  if (!user) return null;
  const signOut = async () => {
    try {
      await sessionStore.getState().signOut();
      toast('success', t('common:success.LOGOUT_SUCCESS'));
      navigate(to('/'), { replace: true });
    } catch {
      toast('error', t('common:errors.SYSTEM_ERROR'));
    }
  };
  return (
    <nav className={styles.userMenu} aria-label={t('nav.account')}>
      <span className={styles.userEmail} title={user.email} data-testid="user-email">
        {user.name || user.email}
      </span>
      <LocaleLink to="/user/profile">{t('nav.profile')}</LocaleLink>
      <LocaleLink to="/user/orders">{t('nav.orders')}</LocaleLink>
      {isAdmin ? <LocaleLink to="/user/admin">{t('nav.admin')}</LocaleLink> : null}
      <Button onClick={signOut}>{t('nav.signOut')}</Button>
    </nav>
  );
}
