import { testOnSharedSite as test, expect } from '../support/site.ts';

const SUBTITLES: Record<number, string> = {
  400: 'The request is invalid, please check it and try again',
  401: 'Your session has expired, please log in again',
  403: 'You do not have permission to access this page',
  404: 'The page you are looking for does not exist',
  500: 'Server error, please try again later',
  503: 'An unknown error occurred',
};

for (const [status, subtitle] of Object.entries(SUBTITLES)) {
  test(`the ${status} error screen`, async ({ page, site }) => {
    await page.goto(`${site.url}/test?error=${status}`);
    const screen = page.locator(`[data-error-status="${status}"]`);
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText(status);
    await expect(screen).toContainText(subtitle);
    await expect(screen).toContainText('This is a preview of the error screen.');
    await expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await expect(screen.getByRole('button', { name: 'Retry' })).toHaveCount(Number(status) >= 500 ? 1 : 0);
    const illustration = screen.locator('[data-illustration]');
    if (status === '404' || status === '403') await expect(illustration).toHaveAttribute('data-illustration', status);
    else await expect(illustration).toHaveCount(0);
  });
}

test('an unknown route gets the 404 screen, localized, with Back to Home to the language root', async ({ page, site }) => {
  const res = await page.goto(`${site.url}/es/no-such-page`);
  expect(res?.status()).toBe(404);
  const screen = page.locator('[data-error-status="404"]');
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText('404');
  await expect(screen).not.toContainText(SUBTITLES[404]!);
  await expect(screen.getByRole('link')).toHaveAttribute('href', '/es');
});

test('Retry on a 500 screen reloads the page', async ({ page, site }) => {
  await page.goto(`${site.url}/test?error=500`);
  await page.evaluate(() => ((window as unknown as { __before: boolean }).__before = true));
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.waitForFunction(() => !(window as unknown as { __before?: boolean }).__before);
  await expect(page.locator('[data-error-status="500"]')).toBeVisible();
});
