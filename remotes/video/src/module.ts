import { createElement, lazy } from 'react';
import { defineRemoteModule } from '@atelier/contract';
import { ROUTES, type PageKey } from './routes.ts';
import { NAMESPACE, REMOTE_NAME, REMOTE_VERSION } from './remote.ts';

const PAGES: Record<PageKey, ReturnType<typeof lazy>> = {
  gallery: lazy(() => import('./pages/gallery.tsx')),
  create: lazy(() => import('./pages/create.tsx')),
  detail: lazy(() => import('./pages/detail.tsx')),
};

export default defineRemoteModule({
  name: REMOTE_NAME,
  version: REMOTE_VERSION,
  contract: 1,
  routes: (Object.keys(ROUTES) as PageKey[]).map((page) => ({
    path: ROUTES[page],
    element: createElement(PAGES[page]),
  })),
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
  navigation: [
    { to: ROUTES.create, labelKey: 'pages.create.title' },
    { to: ROUTES.gallery, labelKey: 'pages.gallery.title' },
  ],
});
