import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@atelier/ui';
import type { RemoteFailure } from './remote-loader.ts';
import styles from './remote-fallback.module.css';

export type FallbackKind = RemoteFailure['kind'] | 'crashed';

/** What a remote's area shows when that remote cannot: the rest of the page keeps working. */
export function RemoteFallback(props: {
  remote: string;
  kind: FallbackKind;
  expected?: number;
  actual?: number;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('shell');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className={styles.fallback} role="alert" data-remote-fallback={props.remote} data-fallback-kind={props.kind}>
      <h2 ref={heading} tabIndex={-1}>
        {t(`remote.${props.kind}.title`)}
      </h2>
      <p>{t(`remote.${props.kind}.body`, { expected: props.expected, actual: props.actual })}</p>
      <Button variant="primary" onClick={props.onRetry} disabled={props.retrying}>
        {props.retrying ? t('remote.retrying') : t('remote.retry')}
      </Button>
    </section>
  );
}
