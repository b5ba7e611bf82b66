import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { taskKey, useTask } from '@atelier/api/react';
import type { ShareLink, Task } from '@atelier/api/schemas';
import { toast } from '@atelier/events';
import { formatDate, LocaleLink, useLocale, useLocalePath } from '@atelier/i18n';
import { Button } from '@atelier/ui';
import { GenerationResult } from '../generation-result.tsx';
import { NAMESPACE } from '../remote.ts';
import styles from './image.module.css';

export default function ImageDetailPage() {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const { task } = useTask(id, { autoCheck: true });
  const update = (next: Task) => queryClient.setQueryData(taskKey(id), next);
  const toggle = async () => {
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
      navigate(to('/dashboard/image'), { replace: true });
    } catch {
      toast('error', t('common:errors.SYSTEM_ERROR'));
    }
  };
  return (
    <section className={styles.page} aria-labelledby="detail-title">
      <h1 id="detail-title">{t('pages.detail.title')}</h1>
      {task ? (
        <p className={styles.hint}>
          {task.prompt} · {formatDate(language, task.createdAt)} · {t(`visibility.${task.visibility}`)}
        </p>
      ) : null}
      <GenerationResult taskId={id} />
      <div className={styles.controls}>
        <Button onClick={toggle} disabled={!task}>
          {task?.visibility === 'public' ? t('detail.makePrivate') : t('detail.makePublic')}
        </Button>
        <Button onClick={share} disabled={task?.status !== 'completed'}>
          {t('detail.share')}
        </Button>
        <Button onClick={remove} disabled={!task}>
          {t('detail.delete')}
        </Button>
        <LocaleLink to="/dashboard/image">{t('detail.back')}</LocaleLink>
      </div>
    </section>
  );
}
