import type { ReactNode } from 'react';
import styles from './remote-placeholder.module.css';

/** The page a remote shows at a route whose feature is not built yet: what it is and which build. */
export function RemotePlaceholder(props: { title: string; lead: string; builtBy: string; children?: ReactNode }) {
  return (
    <section className={styles.page} aria-labelledby="remote-placeholder-title">
      <h1 id="remote-placeholder-title" className={styles.title}>
        {props.title}
      </h1>
      <p className={styles.lead}>{props.lead}</p>
      <p className={styles.meta} data-testid="remote-build">
        {props.builtBy}
      </p>
      {props.children ? <div className={styles.section}>{props.children}</div> : null}
    </section>
  );
}
