import { lazy, Suspense } from 'react';
import { createBrowserRouter, useParams, type RouteObject } from 'react-router';
import type { Language } from '@atelier/contract';
import { LANGUAGES } from '@atelier/i18n';
import { DashboardLayout } from './layouts/dashboard-layout.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { NotFoundScreen, RouteErrorScreen } from './pages/error-screen.tsx';
import { findMount, RemoteOutlet, useRemoteLoader } from './remotes/index.ts';
import { ShellFrame } from './shell-frame.tsx';
import { PageLoading } from './chrome/page-loading.tsx';

const DiagnosticsPage = lazy(() => import('./pages/diagnostics.tsx'));

/** Picks the remote owning the rest of the path, wraps it in its layout, 404s otherwise. */
function RemoteSwitch() {
  const rest = `/${useParams()['*'] ?? ''}`;
  const loader = useRemoteLoader();
  const match = findMount(loader.currentRegistry, rest);
  if (!match) {
    return (
      <DefaultLayout>
        <NotFoundScreen />
      </DefaultLayout>
    );
  }
  const Layout = match.mount.layout === 'dashboard' ? DashboardLayout : DefaultLayout;
  return (
    <Layout>
      <RemoteOutlet key={match.remote} remote={match.remote} />
    </Layout>
  );
}

function Diagnostics() {
  return (
    <DefaultLayout>
      <Suspense fallback={<PageLoading />}>
        <DiagnosticsPage />
      </Suspense>
    </DefaultLayout>
  );
}

/** The same tree under `/` (English) and under each language prefix. */
function localeTree(prefix: Language | null): RouteObject {
  return {
    path: prefix ? `/${prefix}` : '/',
    children: [
      { index: true, element: <RemoteSwitch /> },
      // SHELL_PATHS in @atelier/contract lists these for the server.
      { path: 'test', element: <Diagnostics /> },
      { path: '*', element: <RemoteSwitch /> },
    ],
  };
}

export function createAppRouter() {
  return createBrowserRouter([
    { element: <ShellFrame />, errorElement: <RouteErrorScreen />, children: [localeTree(null), ...LANGUAGES.map(localeTree)] },
  ]);
}
