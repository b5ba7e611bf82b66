import type { CSSProperties } from 'react';
import { LOADING_BAR, useLoadingPhase } from './loading-bar.ts';
import styles from './loading-bar.module.css';

export function LoadingBarView() {
  const phase = useLoadingPhase();
  const style = {
    '--bar-height': `${LOADING_BAR.heightPx}px`,
    '--bar-duration': `${LOADING_BAR.durationMs}ms`,
    '--bar-reset': `${LOADING_BAR.resetDelayMs}ms`,
  } as CSSProperties;
  return <div className={`${styles.bar} ${styles[phase]}`} style={style} data-testid="loading-bar" data-phase={phase} aria-hidden="true" />;
}
