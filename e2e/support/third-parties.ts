import type { Page } from '@playwright/test';

const THIRD_PARTIES = [
  'www.googletagmanager.com',
  'mc.yandex.ru',
  'www.clarity.ms',
  'static.hotjar.com',
  'pagead2.googlesyndication.com',
  'challenges.cloudflare.com',
];

/** The third parties cannot be reached from here: answer as they would, with a script, and count. */
export async function stubThirdParties(page: Page): Promise<string[]> {
  const hits: string[] = [];
  for (const host of THIRD_PARTIES) {
    await page.route(`https://${host}/**`, (route) => {
      hits.push(new URL(route.request().url()).host);
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: '/* stub */' });
    });
  }
  return hits;
}
