import { useTranslation } from 'react-i18next';
import { bus } from '@atelier/events';
import { Button } from '@atelier/ui';
import { NAMESPACE, REMOTE_NAME } from './remote.ts';

/** On the cookies page: reopens the shell's consent choice. */
export function CookieSettings() {
  const { t } = useTranslation(NAMESPACE);
  return <Button onClick={() => bus.emit('consent:manage', { source: REMOTE_NAME })}>{t('cookieSettings')}</Button>;
}
