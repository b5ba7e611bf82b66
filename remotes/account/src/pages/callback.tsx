import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isErrorCode } from '@atelier/api';
import { toast } from '@atelier/events';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { sessionStore } from '@atelier/session';
import { Spinner } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import { safeNext } from '../forms.ts';
import styles from './auth.module.css';

/**
 * Where a sign-in provider sends the visitor back: the server has already completed the exchange
 * and set the session cookie, and says `status=ok|error&code=&returnTo=`; this page confirms it.
 */
export default function CallbackPage() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const to = useLocalePath();
  const [failed, setFailed] = useState(params.get('status') === 'error');
  const code = params.get('code');
  useEffect(() => {
    if (failed) return;
    let live = true;
    sessionStore
      .getState()
      .refresh()
      .then(() => {
        if (!live) return;
        if (sessionStore.getState().status !== 'authenticated') return setFailed(true);
        toast('success', t('common:success.LOGIN_SUCCESS'));
        // returnTo already carries its language prefix.
        navigate(safeNext(params.get('returnTo')) ?? to('/dashboard'), { replace: true });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [failed, navigate, params, t, to]);
  return (
    <section className={styles.card} aria-labelledby="callback-title" aria-busy={!failed}>
      <h1 id="callback-title">{t('pages.callback.title')}</h1>
      {failed ? (
        <>
          <p role="alert">{isErrorCode(code) ? t(`common:errors.${code}`) : t('auth.callbackFailed')}</p>
          <LocaleLink to={`/${ROUTES.login}`}>{t('auth.tryAgain')}</LocaleLink>
        </>
      ) : (
        <Spinner label={t('pages.callback.lead')} />
      )}
    </section>
  );
}
