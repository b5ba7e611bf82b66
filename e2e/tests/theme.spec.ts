import { testOnSharedSite as test, expect } from '../support/site.ts';

test.use({ siteEnv: { ATELIER_PRIMARY_COLOR: '#ffd400' }, signedIn: false });

test('the primary colour from the runtime config becomes the theme, with readable text on it', async ({ page, site }) => {
  await page.goto(`${site.url}/`);
  const cta = page.getByRole('link', { name: 'Get Started' });
  await expect(cta).toHaveCSS('background-color', 'rgb(255, 212, 0)');
  await expect(cta).toHaveCSS('color', 'rgb(21, 23, 28)');
  expect(await page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'))).toBe('#ffd400');
});
