import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { defineRemoteModule } from '@atelier/contract';
import { ROUTES, type PageKey } from './routes.ts';
import { NAMESPACE, REMOTE_NAME, REMOTE_VERSION } from './remote.ts';

const PlaceholderPage = lazy(() => import('./pages/placeholder.tsx'));

/** Pages built so far; the others still show the placeholder. */
const PAGES: Partial<Record<PageKey, LazyExoticComponent<ComponentType>>> = {
  login: lazy(() => import('./pages/login.tsx')),
  register: lazy(() => import('./pages/register.tsx')),
  callback: lazy(() => import('./pages/callback.tsx')),
  updatePassword: lazy(() => import('./pages/update-password.tsx')),
  profile: lazy(() => import('./pages/profile.tsx')),
  dashboard: lazy(() => import('./pages/dashboard-home.tsx')),
  dashboardHome: lazy(() => import('./pages/dashboard-home.tsx')),
};

export default defineRemoteModule({
  name: REMOTE_NAME,
  version: REMOTE_VERSION,
  contract: 1,
  routes: (Object.keys(ROUTES) as PageKey[]).map((page) => {
    const Page = PAGES[page];
    return { path: ROUTES[page], element: Page ? createElement(Page) : createElement(PlaceholderPage, { page }) };
  }),
  i18n: {
    namespace: NAMESPACE,
    load: {
      en: () => import('./locales/en.json'),
      zh: () => import('./locales/zh.json'),
      ru: () => import('./locales/ru.json'),
      de: () => import('./locales/de.json'),
      fr: () => import('./locales/fr.json'),
      ja: () => import('./locales/ja.json'),
      ko: () => import('./locales/ko.json'),
      es: () => import('./locales/es.json'),
      pt: () => import('./locales/pt.json'),
      tr: () => import('./locales/tr.json'),
    },
  },
});
