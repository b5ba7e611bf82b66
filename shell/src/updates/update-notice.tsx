import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@atelier/ui';
import { createBrowserUpdateWatcher, type UpdateWatcher } from './update-watcher.ts';
import styles from './update-notice.module.css';

/**
 * The seed's update banner: bottom right, never closes by itself (duration 0), a primary
 * "Refresh Now". Mounted once by the shell; `watcher` is for tests.
 *
 * Accessibility: the notice is a region (a section named by its title) inside a polite live
 * region that exists from the start, so its appearance is announced without stealing focus; the
 * button is a real button with the design system's visible focus ring.
 */
export function UpdateNotice({ watcher }: { watcher?: UpdateWatcher }) {
  const { t } = useTranslation('shell');
  const [w] = useState(() => watcher ?? createBrowserUpdateWatcher());
  useEffect(() => w.start(), [w]);
  const state = useSyncExternalStore(w.subscribe, w.getSnapshot, w.getSnapshot);
  const titleId = useId();
  const descriptionId = useId();

  return (
    <div className={styles.anchor} aria-live="polite">
      {state.available ? (
        <section className={styles.notice} aria-labelledby={titleId} aria-describedby={descriptionId} data-update-source={state.source}>
          <p id={titleId} className={styles.title}>
            {t('update.title')}
          </p>
          <p id={descriptionId} className={styles.description}>
            {t('update.description')}
          </p>
          <Button variant="primary" className={styles.action} onClick={() => void w.refresh()} disabled={state.refreshing} aria-busy={state.refreshing || undefined}>
            {t('update.refresh')}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
