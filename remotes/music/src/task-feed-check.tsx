import { useTranslation } from 'react-i18next';
import { useSession } from '@atelier/session';
import { useTaskFeed } from './task-feed.ts';
import { NAMESPACE } from './remote.ts';

/** Placeholder until generation lands: shows the shared credits and tasks other remotes submitted. */
export function TaskFeedCheck() {
  const { t } = useTranslation(NAMESPACE);
  const credits = useSession((s) => s.credits);
  const seen = useTaskFeed();
  const last = seen.at(-1);
  return (
    <>
      <p data-testid="remote-credits">{t('check.credits', { credits })}</p>
      <p data-testid="task-feed">
        {last ? t('check.seen', { count: seen.length, source: last.source }) : t('check.none')}
      </p>
    </>
  );
}
