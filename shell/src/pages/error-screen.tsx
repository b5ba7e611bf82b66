import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { localePath, useLocale } from '@atelier/i18n';
import { Button } from '@atelier/ui';
import { ForbiddenIllustration, NotFoundIllustration } from './illustrations.tsx';
import styles from './error-screen.module.css';

const SUBTITLED = new Set([400, 401, 403, 404, 500]);

/**
 * The seed's full-page error screen: the status as title (500 when absent), a localized subtitle
 * for 400/401/403/404/500 and the unknown-error text otherwise, the message, Back to Home (the
 * root of the current language), and Retry (a reload) only for 500 and above.
 */
export function ErrorScreen({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation('shell');
  const { prefix } = useLocale();
  const subtitle = SUBTITLED.has(status) ? t(`errorPage.${status}`) : t('errorPage.unknown');
  return (
    <section className={styles.screen} data-error-status={status}>
      <div>
        {status === 404 ? <NotFoundIllustration /> : status === 403 ? <ForbiddenIllustration /> : null}
        <h1 className={styles.status}>{status}</h1>
        <p className={styles.subtitle}>{subtitle}</p>
        {message ? <p className={styles.message}>{message}</p> : null}
        <div className={styles.actions}>
          {/* A full load: after an error, home should start from a clean page. */}
          <a href={localePath(prefix, '/')} className={styles.link}>
            {t('errorPage.backHome')}
          </a>
          {status >= 500 ? <Button onClick={() => window.location.reload()}>{t('errorPage.retry')}</Button> : null}
        </div>
      </div>
    </section>
  );
}

export function NotFoundScreen() {
  return <ErrorScreen status={404} />;
}

/** Router errorElement: fatal and unhandled route errors land here. */
export function RouteErrorScreen() {
  const error = useRouteError();
  return (
    <main id="main">
      {isRouteErrorResponse(error) ? (
        <ErrorScreen status={error.status} message={error.statusText} />
      ) : (
        <ErrorScreen status={500} message={error instanceof Error ? error.message : undefined} />
      )}
    </main>
  );
}
