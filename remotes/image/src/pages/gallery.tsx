import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyTasks } from '@atelier/api/react';
import { LocaleLink } from '@atelier/i18n';
import { Button, Spinner } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import styles from './image.module.css';

function Page({ cursor, onMore }: { cursor: string | null; onMore: (next: string) => void }) {
  const { t } = useTranslation(NAMESPACE);
  const page = useMyTasks('image', cursor);
  if (page.isPending) return <Spinner label={t('result.loading')} />;
  if (page.isError) {
    return (
      <div role="alert">
        <p>{t('common:errors.IMAGE_QUERY_FAILED')}</p>
        <Button onClick={() => void page.refetch()}>{t('result.checkNow')}</Button>
      </div>
    );
  }
  if (!cursor && page.data.tasks.length === 0) return <p>{t('gallery.empty')}</p>;
  return (
    <>
      <ul className={styles.grid}>
        {page.data.tasks.map((task) => {
          const first = task.outputs[0];
          return (
            <li key={task.id}>
              <LocaleLink to={`/dashboard/image/${task.id}`} aria-label={task.prompt}>
                {first ? <img src={first.url} alt="" loading="lazy" /> : <span>{t(`gallery.status.${task.status}`)}</span>}
              </LocaleLink>
            </li>
          );
        })}
      </ul>
      {page.data.nextCursor ? <Button onClick={() => onMore(page.data.nextCursor!)}>{t('gallery.more')}</Button> : null}
    </>
  );
}

export default function ImageGalleryPage() {
  const { t } = useTranslation(NAMESPACE);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <section className={styles.page} aria-labelledby="gallery-title">
      <div className={styles.toolbar}>
        <h1 id="gallery-title">{t('pages.gallery.title')}</h1>
        <div className={styles.links}>
          <LocaleLink className={styles.cta} to={`/${ROUTES.textToImage}`}>
            {t('pages.textToImage.title')}
          </LocaleLink>
          <LocaleLink className={styles.cta} to={`/${ROUTES.imageToImage}`}>
            {t('pages.imageToImage.title')}
          </LocaleLink>
        </div>
      </div>
      {cursors.map((c, i) => (
        <Page key={c ?? 'first'} cursor={c} onMore={(next) => i === cursors.length - 1 && setCursors([...cursors, next])} />
      ))}
    </section>
  );
}
