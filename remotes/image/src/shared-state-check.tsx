import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { bus } from '@atelier/events';
import { sessionStore, useSession } from '@atelier/session';
import { Button } from '@atelier/ui';
import { NAMESPACE, REMOTE_NAME } from './remote.ts';

/**
 * Placeholder until generation lands: spends one credit in the shared session store and emits
 * `task:submitted`, exactly as a real submission will, so the shell and the other remotes can be
 * seen reacting. It changes nothing on the server.
 */
export function SharedStateCheck() {
  const { t } = useTranslation(NAMESPACE);
  const credits = useSession((s) => s.credits);
  const count = useRef(0);
  const simulate = () => {
    count.current += 1;
    sessionStore.getState().setCredits(sessionStore.getState().credits - 1, REMOTE_NAME);
    bus.emit('task:submitted', { taskId: `preview-${count.current}`, kind: 'image', source: REMOTE_NAME });
  };
  return (
    <>
      <p data-testid="remote-credits">{t('check.credits', { credits })}</p>
      <Button onClick={simulate}>{t('check.simulate')}</Button>
    </>
  );
}
