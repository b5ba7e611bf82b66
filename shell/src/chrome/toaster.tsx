import { useState } from 'react';
import { useBusEvent } from '@atelier/events';
import type { ToastEvent } from '@atelier/contract';
import styles from './toaster.module.css';

/** The seed's toast: 3 s by default, 8 px from the top. Any remote reaches it through the bus. */
export const TOAST_DEFAULT_MS = 3000;

export function Toaster() {
  const [toasts, setToasts] = useState<(ToastEvent & { id: number })[]>([]);
  useBusEvent('toast', (event) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list, { ...event, id }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), event.duration ?? TOAST_DEFAULT_MS);
  });
  return (
    <div className={styles.stack} role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`${styles.toast} ${styles[t.kind] ?? ''}`} data-toast={t.kind}>
          {t.message}
        </div>
      ))}
    </div>
  );
}
