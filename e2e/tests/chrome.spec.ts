import { test, expect } from '../support/site.ts';

test('the loading bar shows while a slow remote loads, 3 px high, then finishes and hides', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/image`);
  await expect(page.locator('[data-remote="image"]')).toBeVisible();
  const bar = page.getByTestId('loading-bar');
  await expect(bar).toHaveAttribute('data-phase', 'idle');
  // Make the next remote slow to arrive.
  await page.route('**/remotes/api-keys/**/mf-manifest.json', async (route) => {
    await new Promise((r) => setTimeout(r, 1200));
    await route.continue();
  });
  const phases: string[] = [];
  await page.exposeFunction('__phase', (p: string) => phases.push(p));
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="loading-bar"]')!;
    new MutationObserver(() => (window as unknown as { __phase: (p: string) => void }).__phase(el.getAttribute('data-phase')!)).observe(el, { attributes: true, attributeFilter: ['data-phase'] });
  });
  await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'API' }).click();
  await expect(bar).toHaveAttribute('data-phase', 'loading');
  expect(await bar.evaluate((el) => getComputedStyle(el).height)).toBe('3px');
  await expect(page.locator('[data-remote="api-keys"]')).toBeVisible();
  await expect(bar).toHaveAttribute('data-phase', 'idle', { timeout: 5000 });
  expect(phases).toEqual(['loading', 'finishing', 'hiding', 'idle']);
});

test('the loading bar turns to its error state when a remote fails', async ({ page, site }) => {
  site.setRemote('chat', { ...site.versionEntry('chat', '9.9.9'), previous: null, history: [] });
  await page.route('**/remotes/chat/9.9.9/**', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.fulfill({ status: 404, body: 'missing' });
  });
  await page.goto(`${site.url}/dashboard/chat`);
  await expect(page.getByTestId('loading-bar')).toHaveAttribute('data-phase', 'error');
  await expect(page.locator('[data-remote-fallback="chat"]')).toBeVisible();
});

test('back-to-top appears after 400 px of scroll and scrolls to the top in about 450 ms', async ({ page, site }) => {
  await page.setViewportSize({ width: 1000, height: 420 });
  await page.goto(`${site.url}/test`);
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
  const button = page.getByRole('button', { name: 'Back to top' });
  await page.evaluate(() => window.scrollTo(0, 300));
  await expect(button).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 650));
  await expect(button).toBeVisible();
  const started = await page.evaluate(() => performance.now());
  await button.click();
  await page.waitForFunction(() => window.scrollY === 0);
  const took = (await page.evaluate(() => performance.now())) - started;
  expect(took).toBeGreaterThan(300);
  expect(took).toBeLessThan(1500);
  await expect(button).toBeHidden();
});

test('client navigation is announced to screen readers', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/image`);
  await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Video' }).click();
  await expect(page.getByTestId('route-announcer')).toHaveText(/^Navigated to Video/);
  await expect(page).toHaveTitle(/Video/);
});

test('notifications and toasts keep the seed placement and timing', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/image`);
  // The language switch confirms with a toast: 3 s, 8 px from the top.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  const toast = page.locator('[data-toast="success"]');
  await expect(toast).toBeVisible();
  const box = await toast.evaluate((el) => el.parentElement!.getBoundingClientRect().top);
  expect(box).toBe(8);
  await expect(toast).toBeHidden({ timeout: 4000 });
});
