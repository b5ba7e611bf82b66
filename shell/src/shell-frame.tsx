import { useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LocaleProvider, localePath, splitLocalePath } from '@atelier/i18n';
import { useBusEvent } from '@atelier/events';
import { BackToTop } from './chrome/back-to-top.tsx';
import { ConsentAndScripts } from './chrome/consent-banner.tsx';
import { LoadingBarView } from './chrome/loading-bar-view.tsx';
import { Notifications } from './chrome/notifications.tsx';
import { RouteAnnouncer } from './chrome/route-announcer.tsx';
import { ErrorScreen } from './pages/error-screen.tsx';
import { usePublicConfig } from './public-config.ts';
import { useShell } from './shell-context.tsx';

/**
 * The frame around every page, in every language: locale, chrome (loading bar, notifications,
 * back-to-top, route announcer, consent), and the full-page error a remote may ask for.
 * It is one route above all language roots, so it survives a language switch.
 */
export function ShellFrame() {
  const { pathname } = useLocation();
  const { prefix } = splitLocalePath(pathname);
  const language = prefix ?? 'en';
  const shell = useShell();
  const navigate = useNavigate();
  const config = usePublicConfig();
  const { t } = useTranslation('common');
  const [appError, setAppError] = useState<{ status: number; message?: string; path: string } | null>(null);

  useEffect(() => {
    document.documentElement.lang = language;
    if (shell.i18n.language !== language) void shell.i18n.changeLanguage(language);
  }, [language, shell]);

  useBusEvent('navigate', ({ to, replace }) => navigate(localePath(prefix, to), { replace: replace ?? false }));
  useBusEvent('app:error', ({ status, message }) => setAppError({ status, message, path: pathname }));
  useBusEvent('session:expired', () =>
    shell.notify({ kind: 'error', title: t('errors.SESSION_EXPIRED'), description: t('errors.LOGIN_REQUIRED') }),
  );

  const showError = appError && appError.path === pathname;
  return (
    <LocaleProvider value={{ language, prefix }}>
      <LoadingBarView />
      {showError ? (
        <main id="main">
          <ErrorScreen status={appError.status} message={appError.message} />
        </main>
      ) : (
        <Outlet />
      )}
      <RouteAnnouncer />
      <BackToTop />
      <Notifications />
      <ConsentAndScripts config={config} />
    </LocaleProvider>
  );
}
