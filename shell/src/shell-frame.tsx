import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LocaleProvider, localePath, splitLocalePath } from '@atelier/i18n';
import { seoRouteFor } from '@atelier/i18n/seo';
import { useBusEvent } from '@atelier/events';
import { BackToTop } from './chrome/back-to-top.tsx';
import { ConsentAndScripts } from './chrome/consent-banner.tsx';
import { LoadingBarView } from './chrome/loading-bar-view.tsx';
import { Notifications } from './chrome/notifications.tsx';
import { RouteAnnouncer } from './chrome/route-announcer.tsx';
import { ErrorScreen } from './pages/error-screen.tsx';
import { usePublicConfig } from '@atelier/config/store';
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
  const seoKey = seoRouteFor(splitLocalePath(pathname).path).key;
  const title = t(`seo.${seoKey}.title`);
  const description = t(`seo.${seoKey}.description`);

  useEffect(() => {
    document.documentElement.lang = language;
    if (shell.i18n.language !== language) void shell.i18n.changeLanguage(language);
  }, [language, shell]);

  // The server wrote the first page's head; client navigations keep it in step. Blog and docs
  // pages refine the title from their content once it has loaded.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current && document.title) return;
    firstPath.current = '';
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [pathname, title, description]);

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
      <RouteAnnouncer title={title} />
      <BackToTop />
      <Notifications />
      <ConsentAndScripts config={config} />
    </LocaleProvider>
  );
}
