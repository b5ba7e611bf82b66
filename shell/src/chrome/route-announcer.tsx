import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import styles from './chrome.module.css';

/**
 * Tells screen-reader users that a client-side navigation happened, with the new page's title,
 * and moves focus to the main region as a full page load would.
 */
export function RouteAnnouncer() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Wait for the page to set its title and heading.
    const timer = setTimeout(() => {
      const heading = document.querySelector('main h1')?.textContent?.trim();
      setMessage(t('chrome.navigatedTo', { title: heading || document.title }));
    }, 150);
    return () => clearTimeout(timer);
  }, [pathname, t]);
  return (
    <div className={styles.announcer} role="status" aria-live="assertive" aria-atomic="true" data-testid="route-announcer">
      {message}
    </div>
  );
}
