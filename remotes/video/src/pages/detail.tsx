import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { api } from '@atelier/api';
import { taskKey, useTask } from '@atelier/api/react';
import type { ShareLink, Task } from '@atelier/api/schemas';
import { bus, toast } from '@atelier/events';
import { formatDate, formatNumber, LocaleLink, useLocale, useLocalePath } from '@atelier/i18n';
import { sessionStore } from '@atelier/session';
import { Button, Spinner } from '@atelier/ui';
import { NAMESPACE, REMOTE_NAME } from '../remote.ts';
import styles from './video.module.css';

function remaining(etaMs: number | null, t: TFunction): string {
  if (etaMs === null) return t('status.estimating');
  const seconds = Math.max(1, Math.round(etaMs / 1000));
  return seconds < 60 ? t('status.secondsLeft', { count: seconds }) : t('status.minutesLeft', { count: Math.ceil(seconds / 60) });
}

export default function VideoDetailPage() {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const [autoCheck, setAutoCheck] = useState(true);
  const { task, isPending, error, timedOut, checkNow } = useTask(id, { autoCheck });
  const announced = useRef<string | null>(null);

  // Completion is announced once: a toast here, an event for the other remotes, a fresh balance.
  useEffect(() => {
    if (!task || announced.current === task.status) return;
    if (task.status === 'completed' || task.status === 'failed') {
      if (announced.current !== null) {
        toast(task.status === 'completed' ? 'success' : 'error', task.status === 'completed' ? t('status.completed') : t(`common:errors.${task.errorCode ?? 'VIDEO_GENERATE_FAILED'}`));
        bus.emit('task:completed', { taskId: task.id, kind: 'video', ok: task.status === 'completed' });
        if (task.status === 'failed') void sessionStore.getState().refresh().catch(() => undefined);
      }
    }
    announced.current = task.status;
  }, [task, t]);

  const update = (next: Task) => queryClient.setQueryData(taskKey(id), next);
  const toggleVisibility = async () => {
    if (!task) return;
    try {
      update(await api<Task>(`/api/tasks/${id}`, { method: 'PATCH', body: { visibility: task.visibility === 'public' ? 'private' : 'public' } }));
    } catch {
      toast('error', t('common:errors.SYSTEM_ERROR'));
    }
  };
  const share = async () => {
    try {
      const link = await api<ShareLink>(`/api/tasks/${id}/share`, { method: 'POST' });
      await navigator.clipboard.writeText(new URL(link.url, window.location.origin).href);
      toast('success', t('common:success.COPY_SUCCESS'));
    } catch {
      toast('error', t('common:errors.COPY_FAILED'));
    }
  };
  const remove = async () => {
    if (!window.confirm(t('detail.confirmDelete'))) return;
    try {
      await api(`/api/tasks/${id}`, { method: 'DELETE' });
      navigate(to('/dashboard/video'), { replace: true });
    } catch {
      toast('error', t('common:errors.SYSTEM_ERROR'));
    }
  };

  if (isPending) return <Spinner label={t('status.loading')} />;
  if (error || !task) {
    return (
      <section className={styles.page}>
        <h1>{t('pages.detail.title')}</h1>
        <p role="alert">{t('common:errors.QUERY_STATUS_FAILED')}</p>
        <Button onClick={() => void checkNow()}>{t('status.checkNow')}</Button>
      </section>
    );
  }
  const running = task.status === 'submitted' || task.status === 'queued' || task.status === 'processing';
  const video = task.outputs.find((o) => o.contentType.startsWith('video/'));
  return (
    <section className={styles.page} aria-labelledby="video-title">
      <h1 id="video-title">{t('pages.detail.title')}</h1>
      <p className={styles.meta}>
        {t(`styles.${String(task.params.style ?? 'cinematic')}`)} · {formatDate(language, task.createdAt)} · {t('detail.cost', { count: task.cost, formatted: formatNumber(language, task.cost) })}
      </p>
      <blockquote>{task.prompt}</blockquote>
      {running ? (
        <div className={styles.status} aria-live="polite" data-task-status={task.status}>
          <h2>{t('status.processing')}</h2>
          <progress className={styles.progress} max={100} value={task.progress} aria-label={t('status.progress')} />
          <p>
            {formatNumber(language, task.progress)}% · {task.status === 'processing' ? remaining(task.etaMs, t) : t('status.queued')}
          </p>
          {timedOut ? <p role="alert">{t('common:errors.QUERY_STATUS_TIMEOUT')}</p> : null}
          <div className={styles.controls}>
            <label>
              <input type="checkbox" checked={autoCheck} onChange={(e) => setAutoCheck(e.target.checked)} /> {t('status.autoCheck')}
            </label>
            <Button onClick={() => void checkNow()}>{t('status.checkNow')}</Button>
          </div>
        </div>
      ) : task.status === 'completed' && video ? (
        <>
          <div className={styles.status} data-task-status="completed">
            <h2>{t('status.completed')}</h2>
          </div>
          <video className={styles.player} src={video.url} controls playsInline preload="metadata" aria-label={task.prompt} />
        </>
      ) : (
        <div className={styles.status} role="alert" data-task-status={task.status}>
          <h2>{t(`common:errors.${task.errorCode ?? 'VIDEO_GENERATE_FAILED'}`)}</h2>
          <p>{t('status.refunded')}</p>
        </div>
      )}
      <div className={styles.controls}>
        <Button onClick={toggleVisibility}>{task.visibility === 'public' ? t('detail.makePrivate') : t('detail.makePublic')}</Button>
        <span className={styles.meta}>{t(`visibility.${task.visibility}`)}</span>
        {task.status === 'completed' ? <Button onClick={share}>{t('detail.share')}</Button> : null}
        <Button onClick={remove}>{t('detail.delete')}</Button>
        <LocaleLink to="/dashboard/video">{t('detail.back')}</LocaleLink>
      </div>
    </section>
  );
}
