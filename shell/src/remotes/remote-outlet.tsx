import { Suspense, useCallback, useEffect, useState } from 'react';
import { useRoutes } from 'react-router';
import type { RemoteModule } from '@atelier/contract';
import { useRemoteLoader } from './remote-context.tsx';
import { RemoteLoadError, type LoadedRemote } from './remote-loader.ts';
import { RemoteFallback } from './remote-fallback.tsx';
import { RenderBoundary } from './render-boundary.tsx';
import { NotFoundScreen } from '../pages/error-screen.tsx';
import { PageLoading } from '../chrome/page-loading.tsx';
import { loadingBar } from '../chrome/loading-bar.ts';

type State =
  | { status: 'loading' }
  | { status: 'ready'; loaded: LoadedRemote }
  | { status: 'failed'; error: RemoteLoadError };

function RemoteRoutes({ module }: { module: RemoteModule }) {
  return useRoutes(module.routes) ?? <NotFoundScreen />;
}

/** Loads one remote on first visit and renders its routes, isolated from every other area. */
export function RemoteOutlet({ remote }: { remote: string }) {
  const loader = useRemoteLoader();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [retrying, setRetrying] = useState(false);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    loader.get(remote).then(
      (loaded) => live && setState({ status: 'ready', loaded }),
      (error: RemoteLoadError) => {
        if (!live) return;
        loadingBar.error();
        setState({ status: 'failed', error });
      },
    );
    return () => {
      live = false;
    };
  }, [loader, remote]);

  const retry = useCallback(async () => {
    setRetrying(true);
    try {
      const loaded = await loader.retry(remote);
      setState({ status: 'ready', loaded });
    } catch (error) {
      setState({ status: 'failed', error: error as RemoteLoadError });
    } finally {
      setRetrying(false);
      setAttempt((n) => n + 1);
    }
  }, [loader, remote]);

  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'failed') {
    const f = state.error.failure;
    return (
      <RemoteFallback
        remote={remote}
        kind={f.kind}
        expected={f.kind === 'incompatible' ? f.expected : undefined}
        actual={f.kind === 'incompatible' ? f.actual : undefined}
        retrying={retrying}
        onRetry={retry}
      />
    );
  }
  const { module, fellBack } = state.loaded;
  return (
    <RenderBoundary
      key={`${attempt}:${module.version}`}
      fallback={() => <RemoteFallback remote={remote} kind="crashed" retrying={retrying} onRetry={retry} />}
      onError={() => loadingBar.error()}
    >
      <div data-remote={module.name} data-remote-version={module.version} data-remote-fallback-version={fellBack ? '' : undefined}>
        <Suspense fallback={<PageLoading />}>
          <RemoteRoutes module={module} />
        </Suspense>
      </div>
    </RenderBoundary>
  );
}
