import { test, expect } from '../support/site.ts';

test('create a key (secret shown once and copyable), deactivate, activate, delete — with the seed messages', async ({ page, site, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  await page.goto(`${site.url}/dashboard/api`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API');

  // Without a name: "Unnamed".
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await page.getByTestId('secret-value').textContent();
  expect(secret).toMatch(/^atl_/);
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.locator('[data-toast="success"]')).toHaveText('API key copied to clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = page.locator('tbody tr').first();
  await expect(row.getByRole('rowheader')).toHaveText('Unnamed');
  await expect(row.locator('code')).not.toHaveText(secret!);

  // The key works on the business API, and stops at once when deactivated.
  const models = () => page.request.get(`${site.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(page.getByTestId('new-secret')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('secret-value')).toHaveCount(0);

  await row.getByRole('button', { name: 'Deactivate Unnamed' }).click();
  await expect(page.locator('[data-toast="success"]').last()).toHaveText('API key deactivated');
  await expect(row).toContainText('Inactive');
  expect((await models()).status()).toBe(401);
  await row.getByRole('button', { name: 'Activate Unnamed' }).click();
  await expect(page.locator('[data-toast="success"]').last()).toHaveText('API key activated');
  await expect(row).toContainText('Active');

  // Named key, then delete after confirming.
  await page.getByLabel('Key name (optional)').fill('batch jobs');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.getByRole('button', { name: 'Delete batch jobs' }).click();
  await expect(page.getByRole('dialog')).toContainText('batch jobs');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('[data-toast="success"]').last()).toHaveText('API key deleted');
  await expect(page.locator('tbody tr')).toHaveCount(1);
});
