import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTask } from '@atelier/api/react';
import { bus } from '@atelier/events';
import { formatNumber, useLocale } from '@atelier/i18n';
import { sessionStore } from '@atelier/session';
import { Button } from '@atelier/ui';
import { NAMESPACE } from './remote.ts';
import styles from './pages/image.module.css';

/** The images of one task: progress while it runs, the pictures when done, the reason when not. */
export function GenerationResult({ taskId }: { taskId: string }) {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const { task, error, timedOut, checkNow } = useTask(taskId, { autoCheck: true });
  const announced = useRef(false);
  useEffect(() => {
    if (!task || announced.current || (task.status !== 'completed' && task.status !== 'failed')) return;
    announced.current = true;
    bus.emit('task:completed', { taskId: task.id, kind: 'image', ok: task.status === 'completed' });
    if (task.status === 'failed') void sessionStore.getState().refresh().catch(() => undefined);
  }, [task]);
  if (error) {
    return (
      <div role="alert">
        <p>{t('common:errors.IMAGE_QUERY_FAILED')}</p>
        <Button onClick={() => void checkNow()}>{t('result.checkNow')}</Button>
      </div>
    );
  }
  if (!task || task.status === 'submitted' || task.status === 'queued' || task.status === 'processing') {
    return (
      <div aria-live="polite" data-task-status={task?.status ?? 'submitted'}>
        <p>{task?.status === 'processing' ? t('result.generating') : t('result.queued')}</p>
        <progress className={styles.progress} max={100} value={task?.progress ?? 0} aria-label={t('result.progress')} />
        <p className={styles.hint}>{formatNumber(language, task?.progress ?? 0)}%</p>
        {timedOut ? (
          <p role="alert">
            {t('common:errors.QUERY_STATUS_TIMEOUT')} <Button onClick={() => void checkNow()}>{t('result.checkNow')}</Button>
          </p>
        ) : null}
      </div>
    );
  }
  if (task.status !== 'completed') {
    return (
      <div role="alert" data-task-status={task.status}>
        <p>{t(`common:errors.${task.errorCode ?? 'IMAGE_GENERATE_FAILED'}`)}</p>
        <p className={styles.hint}>{t('result.refunded')}</p>
      </div>
    );
  }
  return (
    <div className={styles.images} data-task-status="completed">
      {task.outputs.map((o, i) => (
        <a key={o.id} href={o.url} target="_blank" rel="noreferrer">
          <img src={o.url} width={o.width ?? undefined} height={o.height ?? undefined} alt={t('result.alt', { index: i + 1, prompt: task.prompt })} />
        </a>
      ))}
    </div>
  );
}
