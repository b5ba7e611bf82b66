import { testOnSharedSite as test, expect } from '../support/site.ts';
import { stubThirdParties } from '../support/third-parties.ts';

test.use({
  siteEnv: {
    ATELIER_WEB_ANALYTICS_ID: 'G-TEST123',
    ATELIER_RUSSIAN_SEARCH_ANALYTICS_ID: '12345678',
    ATELIER_MICROSOFT_ANALYTICS_ID: 'abcd1234',
    ATELIER_SESSION_RECORDING_ID: '987654',
    ATELIER_ADS_ACCOUNT_ID: 'ca-pub-1234567890',
    ATELIER_BOT_CHALLENGE_SITE_KEY: '1x00000000000000000000AA',
  },
});

test('analytics load only after the visitor accepts, and the choice is remembered', async ({ page, site }) => {
  const hits = await stubThirdParties(page);
  await page.goto(`${site.url}/pricing`);
  const banner = page.getByTestId('consent-banner');
  await expect(banner).toBeVisible();
  await page.waitForTimeout(500);
  expect(hits).toEqual([]);
  await banner.getByRole('button', { name: 'Accept analytics' }).click();
  await expect(banner).toBeHidden();
  await expect.poll(() => new Set(hits).size).toBe(5);
  expect(hits).not.toContain('challenges.cloudflare.com');

  hits.length = 0;
  await page.reload();
  await expect(page.locator('[data-remote="public-site"]')).toBeVisible();
  await expect(page.getByTestId('consent-banner')).toBeHidden();
  await expect.poll(() => new Set(hits).size).toBe(5);
});

test('rejecting loads nothing; the cookies page lets the visitor change the choice', async ({ page, site }) => {
  const hits = await stubThirdParties(page);
  await page.goto(`${site.url}/legal/cookies`);
  await page.getByRole('button', { name: 'Only necessary cookies' }).click();
  await page.reload();
  await expect(page.locator('[data-remote="public-site"]')).toBeVisible();
  await page.waitForTimeout(500);
  expect(hits).toEqual([]);
  await page.getByRole('button', { name: 'Cookie settings' }).click();
  await page.getByTestId('consent-banner').getByRole('button', { name: 'Accept analytics' }).click();
  await expect.poll(() => new Set(hits).size).toBe(5);
});

test('the bot-challenge script loads on sign-in pages only, with no consent needed', async ({ page, site }) => {
  const hits = await stubThirdParties(page);
  await page.goto(`${site.url}/pricing`);
  await expect(page.locator('[data-remote="public-site"]')).toBeVisible();
  expect(hits).not.toContain('challenges.cloudflare.com');
  await page.goto(`${site.url}/de/auth/login`);
  await expect.poll(() => hits.includes('challenges.cloudflare.com')).toBe(true);
  expect(hits.filter((h) => h !== 'challenges.cloudflare.com')).toEqual([]);
});
