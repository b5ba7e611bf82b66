import { testOnSharedSite as test, expect } from '../support/site.ts';
import { stubThirdParties } from '../support/third-parties.ts';

test('with nothing configured there is no banner and no third-party request', async ({ page, site }) => {
  const hits = await stubThirdParties(page);
  await page.goto(`${site.url}/auth/login`);
  await expect(page.locator('[data-remote="account"]')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  expect(hits).toEqual([]);
});
