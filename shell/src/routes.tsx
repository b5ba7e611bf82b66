import { useEffect } from 'react';
import { Outlet, createBrowserRouter, useNavigate, useParams, type RouteObject } from 'react-router';
import type { Language } from '@atelier/contract';
import { LANGUAGES, LocaleProvider, localePath } from '@atelier/i18n';
import { useBusEvent } from '@atelier/events';
import { DashboardLayout } from './layouts/dashboard-layout.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { NotFoundScreen, RouteErrorScreen } from './pages/error-screen.tsx';
import { findMount, RemoteOutlet, useRemoteLoader } from './remotes/index.ts';
import { useShell } from './shell-context.tsx';

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

/** One per language prefix (and the unprefixed English root): sets the page language. */
function LocaleRoot({ prefix }: { prefix: Language | null }) {
  const language: Language = prefix ?? 'en';
  const shell = useShell();
  const navigate = useNavigate();
  useEffect(() => {
    document.documentElement.lang = language;
    if (shell.i18n.language !== language) void shell.i18n.changeLanguage(language);
  }, [language, shell]);
  useBusEvent('navigate', ({ to, replace }) => navigate(localePath(prefix, to), { replace: replace ?? false }));
  return (
    <LocaleProvider value={{ language, prefix }}>
      <Outlet />
    </LocaleProvider>
  );
}

function localeTree(prefix: Language | null): RouteObject {
  return {
    path: prefix ? `/${prefix}` : '/',
    element: <LocaleRoot prefix={prefix} />,
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: <RemoteSwitch /> },
      { path: '*', element: <RemoteSwitch /> },
    ],
  };
}

export function createAppRouter() {
  return createBrowserRouter([localeTree(null), ...LANGUAGES.map(localeTree)]);
}
