import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { bus } from '@atelier/events';
import { sessionStore, useSession } from '@atelier/session';
import { Button } from '@atelier/ui';
import { NAMESPACE, REMOTE_NAME } from './remote.ts';

/**
 * Placeholder until generation lands: changes the balance in the shared session store and emits
 * `task:submitted`, as a real submission will, so the shell and the other remotes can be seen
 * reacting. Nothing reaches the server; the next session check restores the real balance.
 */
export function SharedStateCheck() {
  const { t } = useTranslation(NAMESPACE);
  const credits = useSession((s) => s.credits);
  const count = useRef(0);
  const topUp = () => sessionStore.getState().setCredits(sessionStore.getState().credits + 10, REMOTE_NAME);
  const submit = () => {
    count.current += 1;
    bus.emit('task:submitted', { taskId: `preview-${count.current}`, kind: 'image', source: REMOTE_NAME });
  };
  return (
    <>
      <p data-testid="remote-credits">{t('check.credits', { credits })}</p>
      <p style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <Button onClick={topUp}>{t('check.topUp')}</Button>
        <Button onClick={submit}>{t('check.submit')}</Button>
      </p>
    </>
  );
}
