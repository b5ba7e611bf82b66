import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError, api, configureApi } from '@atelier/api';
import { bus } from '@atelier/events';
import { detectLanguage, languageCookie, localePath, readLanguageCookie, splitLocalePath } from '@atelier/i18n';
import { configureSession, sessionStore, type SessionFetchResult } from '@atelier/session';
import { loadRemoteModule } from '#remote-loader';
import '@atelier/ui/tokens.css';
import { ErrorScreen } from './pages/error-screen.tsx';
import { loadPublicConfig } from '@atelier/config/store';
import { ShellI18n } from './i18n.ts';
import { RemoteLoader, RemoteLoaderContext, fetchRegistry, initialRegistry } from './remotes/index.ts';
import { createAppRouter } from './routes.tsx';
import { ShellProvider, createShellServices } from './shell-context.tsx';
import { UpdateNotice } from './updates/update-notice.tsx';

/**
 * First visit without a prefix: the remembered language, else the browser's, picks the prefix.
 * Runs before the router exists, so the first render is already in the right language.
 */
function settleLanguagePrefix() {
  const { prefix, path } = splitLocalePath(window.location.pathname);
  if (prefix) return prefix;
  const remembered = readLanguageCookie(document.cookie);
  const language = remembered ?? detectLanguage(navigator.languages);
  if (!remembered) document.cookie = languageCookie(language, window.location.protocol === 'https:');
  if (language === 'en') return 'en';
  window.history.replaceState(null, '', localePath(language, path) + window.location.search + window.location.hash);
  return language;
}

async function start() {
  const language = settleLanguagePrefix();
  const i18n = new ShellI18n();
  void loadPublicConfig();
  const [registry] = await Promise.all([initialRegistry(), i18n.init(language)]);

  configureApi({ onUnauthorized: () => sessionStore.getState().expire() });
  configureSession({
    fetchSession: () => api<SessionFetchResult>('/api/auth/session'),
    endSession: async () => void (await api('/api/auth/logout', { method: 'POST' })),
  });
  void sessionStore
    .getState()
    .refresh()
    .catch((err: unknown) => {
      // The session cookie outlived its session: say so once, as the seed asks.
      if (err instanceof ApiError && err.code === 'SESSION_EXPIRED') {
        sessionStore.setState({ status: 'expired', checked: true });
        bus.emit('session:expired', { reason: 'unauthorized' });
      }
    });

  const loader = new RemoteLoader({
    registry,
    load: loadRemoteModule,
    fetchRegistry: () => fetchRegistry(),
    prepare: (module) => i18n.addRemote(module.i18n),
  });
  const services = createShellServices(i18n);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 10_000 } } });
  const router = createAppRouter();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nextProvider i18n={i18n.instance}>
        <QueryClientProvider client={queryClient}>
          <ShellProvider value={services}>
            <RemoteLoaderContext.Provider value={loader}>
              <RouterProvider router={router} />
              <UpdateNotice />
            </RemoteLoaderContext.Provider>
          </ShellProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}

/** A failure before the app could render is fatal: show the error screen on its own. */
function renderFatal(error: unknown) {
  console.error('[atelier] the app could not start', error);
  const i18n = new ShellI18n();
  void i18n
    .init(splitLocalePath(window.location.pathname).prefix ?? 'en')
    .catch(() => undefined)
    .then(() =>
      createRoot(document.getElementById('root')!).render(
        <I18nextProvider i18n={i18n.instance}>
          <main id="main">
            <ErrorScreen status={500} message={error instanceof Error ? error.message : undefined} />
          </main>
        </I18nextProvider>,
      ),
    );
}

start().catch(renderFatal);
