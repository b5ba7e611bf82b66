import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@atelier/ui';
import { loadingBar } from './loading-bar.ts';
import styles from '../remotes/remote-fallback.module.css';

/** Shown while a page's code loads; drives the top loading bar for as long as it is mounted. */
export function PageLoading() {
  const { t } = useTranslation('shell');
  useEffect(() => {
    loadingBar.start();
    return () => loadingBar.finish();
  }, []);
  return (
    <div className={styles.loading}>
      <Spinner label={t('remote.loading')} />
    </div>
  );
}
