import { createElement, lazy } from 'react';
import { defineRemoteModule } from '@atelier/contract';
import { ROUTES, type PageKey } from './routes.ts';
import { NAMESPACE, REMOTE_NAME, REMOTE_VERSION } from './remote.ts';

const PAGES: Record<PageKey, ReturnType<typeof lazy>> = {
  gallery: lazy(() => import('./pages/gallery.tsx')),
  textToImage: lazy(() => import('./pages/text-to-image.tsx')),
  imageToImage: lazy(() => import('./pages/image-to-image.tsx')),
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
    { to: ROUTES.textToImage, labelKey: 'pages.textToImage.title' },
    { to: ROUTES.imageToImage, labelKey: 'pages.imageToImage.title' },
  ],
});
