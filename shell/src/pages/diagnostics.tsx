import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate, LocaleLink, useLocale } from '@atelier/i18n';
import { useRemoteLoader } from '../remotes/index.ts';
import { ErrorScreen } from './error-screen.tsx';
import styles from './diagnostics.module.css';

const PREVIEW_STATUSES = [400, 401, 403, 404, 500, 503];

interface FederationShare {
  __SHARE__: Record<string, Record<string, Record<string, Record<string, { from: string; loaded?: boolean; treeShaking?: { loaded?: boolean } }>>>>;
}

/** Shared packages actually loaded in this page, with the version and who provided it. */
function loadedShared(): { name: string; version: string; from: string }[] {
  const fed = (window as unknown as { __FEDERATION__?: FederationShare }).__FEDERATION__;
  const out = new Map<string, { name: string; version: string; from: string }>();
  for (const scopes of Object.values(fed?.__SHARE__ ?? {})) {
    for (const pkgs of Object.values(scopes)) {
      for (const [name, versions] of Object.entries(pkgs)) {
        for (const [version, s] of Object.entries(versions)) if (s.loaded || s.treeShaking?.loaded) out.set(name, { name, version, from: s.from });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function useJson<T>(url: string): { data: T | null; error: boolean } {
  const [state, setState] = useState<{ data: T | null; error: boolean }>({ data: null, error: false });
  useEffect(() => {
    let live = true;
    fetch(url, { cache: 'no-store' })
      .then((r) => (r.ok ? (r.json() as Promise<T>) : Promise.reject(new Error(String(r.status)))))
      .then((data) => live && setState({ data, error: false }))
      .catch(() => live && setState({ data: null, error: true }));
    return () => {
      live = false;
    };
  }, [url]);
  return state;
}

function serviceWorkerState(): string {
  if (!('serviceWorker' in navigator)) return 'unsupported';
  return navigator.serviceWorker.controller?.state ?? 'none';
}

/** `/test`: what is running in this page, for operators and support. */
export default function DiagnosticsPage() {
  const { t } = useTranslation('shell');
  const { language } = useLocale();
  const [params] = useSearchParams();
  const loader = useRemoteLoader();
  useSyncExternalStore((l) => loader.subscribe(l), () => loader.currentRegistry);
  const version = useJson<{ timestamp: number }>('/version.json');
  const health = useJson<{ status: string }>('/api/health');
  const preview = Number(params.get('error'));
  if (PREVIEW_STATUSES.includes(preview)) return <ErrorScreen status={preview} message={t('diagnostics.previewMessage')} />;

  const remotes = Object.entries(loader.currentRegistry.remotes);
  const status = (name: string) => {
    const s = loader.status(name);
    return s.state === 'ready' ? t('diagnostics.state.ready', { version: s.version }) : t(`diagnostics.state.${s.state}`);
  };
  return (
    <section className={styles.page} aria-labelledby="diagnostics-title">
      <h1 id="diagnostics-title">{t('diagnostics.title')}</h1>
      <dl className={styles.facts}>
        <dt>{t('diagnostics.shellVersion')}</dt>
        <dd data-testid="shell-version">{process.env.ATELIER_SHELL_VERSION}</dd>
        <dt>{t('diagnostics.deployedAt')}</dt>
        <dd>{version.data ? formatDate(language, version.data.timestamp) : '—'}</dd>
        <dt>{t('diagnostics.api')}</dt>
        <dd data-testid="api-health">{health.data?.status === 'ok' ? t('diagnostics.apiOk') : health.error ? t('diagnostics.apiDown') : '…'}</dd>
        <dt>{t('diagnostics.serviceWorker')}</dt>
        <dd>{serviceWorkerState()}</dd>
      </dl>
      <h2>{t('diagnostics.remotes')}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t('diagnostics.remote')}</th>
            <th scope="col">{t('diagnostics.live')}</th>
            <th scope="col">{t('diagnostics.previous')}</th>
            <th scope="col">{t('diagnostics.status')}</th>
          </tr>
        </thead>
        <tbody>
          {remotes.map(([name, entry]) => (
            <tr key={name} data-remote-row={name}>
              <th scope="row">{name}</th>
              <td>{entry.version}</td>
              <td>{entry.previous?.version ?? '—'}</td>
              <td>{status(name)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t('diagnostics.shared')}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t('diagnostics.package')}</th>
            <th scope="col">{t('diagnostics.version')}</th>
            <th scope="col">{t('diagnostics.providedBy')}</th>
          </tr>
        </thead>
        <tbody>
          {loadedShared().map((s) => (
            <tr key={s.name}>
              <th scope="row">{s.name}</th>
              <td>{s.version}</td>
              <td>{s.from}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t('diagnostics.errorPreviews')}</h2>
      <ul className={styles.previews}>
        {PREVIEW_STATUSES.map((s) => (
          <li key={s}>
            <LocaleLink to={`/test?error=${s}`}>{s}</LocaleLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
