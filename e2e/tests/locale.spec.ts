import { testOnSharedSite as test, expect } from '../support/site.ts';
import { LANGUAGES } from '@atelier/contract';

test.describe('first visit', () => {
  test.use({ locale: 'ja-JP' });

  test('the browser language picks the prefix and a 365-day Lax cookie remembers it', async ({ page, site, context }) => {
    await page.goto(`${site.url}/pricing`);
    await expect(page).toHaveURL(`${site.url}/ja/pricing`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    const cookie = (await context.cookies()).find((c) => c.name === 'atelier_lang')!;
    expect(cookie).toMatchObject({ value: 'ja', path: '/', sameSite: 'Lax' });
    const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    // A later unprefixed visit keeps the remembered language.
    await page.goto(`${site.url}/docs`);
    await expect(page).toHaveURL(`${site.url}/ja/docs`);
  });

  test('a prefixed URL is respected whatever the browser says', async ({ page, site }) => {
    await page.goto(`${site.url}/ko/pricing`);
    await expect(page).toHaveURL(`${site.url}/ko/pricing`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  });
});

test('English browsers stay unprefixed', async ({ page, site }) => {
  await page.goto(`${site.url}/pricing`);
  await expect(page).toHaveURL(`${site.url}/pricing`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('switching language on a remote page keeps the route, re-renders the remote, and confirms in the new language', async ({ page, site, context }) => {
  await page.goto(`${site.url}/dashboard/image/create/text-to-image`);
  const remote = page.locator('[data-remote="image"]');
  await expect(remote.locator('h1')).toHaveText('Text to Image');
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await page.getByRole('combobox', { name: 'Language' }).first().selectOption('de');
  await expect(page).toHaveURL(`${site.url}/de/dashboard/image/create/text-to-image`);
  await expect(remote.locator('h1')).not.toHaveText('Text to Image');
  await expect(page.getByRole('navigation', { name: /./ }).first()).not.toContainText('Text to Image');
  await expect(page.locator('[data-toast="success"]')).toBeVisible();
  const toast = await page.locator('[data-toast="success"]').textContent();
  expect(toast).not.toBe('Language changed successfully');
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  expect((await context.cookies()).find((c) => c.name === 'atelier_lang')?.value).toBe('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // Back to English: the unprefixed route.
  await page.getByRole('combobox').first().selectOption('en');
  await expect(page).toHaveURL(`${site.url}/dashboard/image/create/text-to-image`);
  await expect(page.locator('[data-toast="success"]').last()).toHaveText('Language changed successfully');
});

test('all ten languages render a dashboard page with no missing key', async ({ page, site }) => {
  const english = new Map<string, string>();
  for (const lang of LANGUAGES) {
    await page.goto(`${site.url}/${lang}/dashboard/music`);
    const remote = page.locator('[data-remote="music"]');
    await expect(remote.locator('h1')).not.toBeEmpty();
    await expect(page.getByTestId('task-feed')).not.toBeEmpty();
    const missing = await page.evaluate(() => (window as unknown as { __atelierMissingKeys?: string[] }).__atelierMissingKeys ?? []);
    expect(missing, lang).toEqual([]);
    const text = await page.locator('body').innerText();
    // No raw keys on screen.
    expect(text, lang).not.toMatch(/\b(pages|nav|check|remote|errorPage|footer)\.[a-zA-Z]+/);
    const heading = (await remote.locator('h1').textContent())!;
    const nav = (await page.getByRole('navigation').first().innerText())!;
    if (lang === 'en') {
      english.set('heading', heading);
      english.set('nav', nav);
    } else {
      expect(nav, `${lang} navigation is translated`).not.toBe(english.get('nav'));
    }
  }
});
