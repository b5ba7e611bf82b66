import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusEvent } from '@atelier/events';
import type { NotifyEvent, ToastEvent } from '@atelier/contract';
import styles from './chrome.module.css';

/** The seed: toasts last 3 s, 8 px from the top; notifications 4.5 s, top right, 24 px offsets. */
export const TOAST = { durationMs: 3000, topPx: 8 } as const;
export const NOTIFICATION = { durationMs: 4500, offsetPx: 24, placement: 'topRight' } as const;

function useTimedList<T>() {
  const [items, setItems] = useState<(T & { id: number })[]>([]);
  const remove = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);
  const add = useCallback(
    (item: T, durationMs: number) => {
      const id = Date.now() + Math.random();
      setItems((list) => [...list, { ...item, id }]);
      if (durationMs > 0) setTimeout(() => remove(id), durationMs);
    },
    [remove],
  );
  return { items, add, remove };
}

/** Toasts and notifications from any remote, through the bus. */
export function Notifications() {
  const { t } = useTranslation('shell');
  const toasts = useTimedList<ToastEvent>();
  const notes = useTimedList<NotifyEvent>();
  useBusEvent('toast', (e) => toasts.add(e, e.duration ?? TOAST.durationMs));
  useBusEvent('notify', (e) => notes.add(e, e.duration ?? NOTIFICATION.durationMs));
  return (
    <>
      <div className={styles.toasts} style={{ top: TOAST.topPx }} role="status" aria-live="polite">
        {toasts.items.map((item) => (
          <div key={item.id} className={`${styles.toast} ${styles[item.kind]}`} data-toast={item.kind}>
            {item.message}
          </div>
        ))}
      </div>
      <div className={styles.notifications} style={{ top: NOTIFICATION.offsetPx, right: NOTIFICATION.offsetPx }} role="region" aria-label={t('chrome.notifications')}>
        {notes.items.map((item) => (
          <div key={item.id} className={`${styles.notification} ${styles[item.kind]}`} role={item.kind === 'error' ? 'alert' : 'status'} data-notification={item.kind}>
            <div>
              <strong>{item.title}</strong>
              {item.description ? <p>{item.description}</p> : null}
            </div>
            <button type="button" className={styles.close} aria-label={t('chrome.close')} onClick={() => notes.remove(item.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </>
  );
}
