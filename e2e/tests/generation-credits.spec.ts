import { testOnSharedSite as test, expect } from '../support/site.ts';

// Accounts start with no free credits on this server.
test.use({ siteEnv: { ATELIER_FREE_CREDITS: '0' } });

test('image generation with too few credits shows the seed message and spends nothing', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/image/create/text-to-image`);
  await expect(page.getByTestId('shell-credits')).toHaveText('0 credits');
  await page.getByLabel('Prompt').fill('a castle');
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your credits are not enough, please top up, if you have any questions, please contact support');
  await expect(page.getByTestId('shell-credits')).toHaveText('0 credits');
  const list = await page.request.get(`${site.url}/api/tasks?kind=image`);
  expect((await list.json()).tasks).toEqual([]);
});
