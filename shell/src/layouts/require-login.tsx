import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from '@atelier/events';
import { splitLocalePath, useLocalePath } from '@atelier/i18n';
import { useSession } from '@atelier/session';
import { PageLoading } from '../chrome/page-loading.tsx';

/**
 * The dashboard and the user pages need a session: wait for the first session check, then send
 * visitors to sign in ("Please login first"), coming back here afterwards.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const { checked, status } = useSession();
  const { pathname, search } = useLocation();
  const to = useLocalePath();
  const refused = checked && status !== 'authenticated';
  useEffect(() => {
    // An expired session has its own notice already.
    if (refused && status === 'anonymous') toast('info', t('errors.LOGIN_REQUIRED'));
  }, [refused, status, t]);
  if (!checked) return <PageLoading />;
  if (refused) {
    const next = encodeURIComponent(splitLocalePath(pathname).path + search);
    return <Navigate to={`${to('/auth/login')}?next=${next}`} replace />;
  }
  return children;
}
