import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyTasks } from '@atelier/api/react';
import type { Task } from '@atelier/api/schemas';
import { LocaleLink } from '@atelier/i18n';
import { Button, Spinner } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import styles from './video.module.css';

function Page({ cursor, onMore }: { cursor: string | null; onMore: (next: string) => void }) {
  const { t } = useTranslation(NAMESPACE);
  const page = useMyTasks('video', cursor);
  if (page.isPending) return <Spinner label={t('status.loading')} />;
  if (page.isError) {
    return (
      <div role="alert">
        <p>{t('common:errors.QUERY_VIDEO_LIST_FAILED')}</p>
        <Button onClick={() => void page.refetch()}>{t('status.checkNow')}</Button>
      </div>
    );
  }
  if (!cursor && page.data.tasks.length === 0) return <p>{t('gallery.empty')}</p>;
  return (
    <>
      <ul className={styles.grid}>
        {page.data.tasks.map((task: Task) => {
          const video = task.outputs.find((o) => o.contentType.startsWith('video/'));
          return (
            <li key={task.id}>
              <LocaleLink className={styles.card} to={`/dashboard/video/${task.id}`}>
                {video ? <video src={`${video.url}#t=0.5`} muted preload="metadata" aria-hidden="true" /> : <span className={styles.placeholder}>{t(`gallery.status.${task.status}`)}</span>}
                <p>{task.prompt}</p>
              </LocaleLink>
            </li>
          );
        })}
      </ul>
      {page.data.nextCursor ? <Button onClick={() => onMore(page.data.nextCursor!)}>{t('gallery.more')}</Button> : null}
    </>
  );
}

export default function VideoGalleryPage() {
  const { t } = useTranslation(NAMESPACE);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <section className={styles.page} aria-labelledby="gallery-title">
      <div className={styles.toolbar}>
        <h1 id="gallery-title">{t('pages.gallery.title')}</h1>
        <LocaleLink className={styles.cta} to="/dashboard/video/create">
          {t('gallery.create')}
        </LocaleLink>
      </div>
      {cursors.map((c, i) => (
        <Page key={c ?? 'first'} cursor={c} onMore={(next) => i === cursors.length - 1 && setCursors([...cursors, next])} />
      ))}
    </section>
  );
}
