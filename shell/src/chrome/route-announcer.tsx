import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import styles from './chrome.module.css';

/**
 * Tells screen-reader users that a client-side navigation happened, with the new page's title
 * (a full page load would announce the document title).
 */
export function RouteAnnouncer({ title }: { title: string }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setMessage(t('chrome.navigatedTo', { title }));
  }, [pathname, title, t]);
  return (
    <div className={styles.announcer} role="status" aria-live="assertive" aria-atomic="true" data-testid="route-announcer">
      {message}
    </div>
  );
}
