import { useTranslation } from 'react-i18next';
import { RemotePlaceholder } from '@atelier/ui';
import type { PageKey } from '../routes.ts';
import { NAMESPACE, REMOTE_NAME, REMOTE_VERSION } from '../remote.ts';
import { TaskFeedCheck } from '../task-feed-check.tsx';

export default function PlaceholderPage({ page }: { page: PageKey }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <RemotePlaceholder
      title={t(`pages.${page}.title`)}
      lead={t(`pages.${page}.lead`)}
      builtBy={t('builtBy', { name: REMOTE_NAME, version: REMOTE_VERSION })}
    >
      <TaskFeedCheck />
    </RemotePlaceholder>
  );
}
