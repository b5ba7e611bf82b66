import { join } from 'node:path';
import { test, expect } from '../support/site.ts';
import { FIXTURES_DIR } from '../support/paths.ts';

test.beforeEach(({ site }) => {
  // The registry points chat at a real remote built for contract major 99.
  site.publish('chat', '0.0.1-contract', join(FIXTURES_DIR, 'chat-contract'));
  site.setRemote('chat', { ...site.versionEntry('chat', '0.0.1-contract'), previous: null, history: [] });
});

test('a remote built for another contract major is refused with a clear message in the layout', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/chat`);
  const fallback = page.locator('[data-remote-fallback="chat"]');
  await expect(fallback).toHaveAttribute('data-fallback-kind', 'incompatible');
  await expect(fallback.getByRole('heading')).toHaveText('This part of Atelier needs an update');
  await expect(fallback).toContainText('built for app contract version 99, but this app uses version 1');
  await expect(page.locator('[data-remote="chat"]')).toHaveCount(0);
  // Inside the dashboard layout: navigation still works and leads to a working remote.
  await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'API' }).click();
  await expect(page.locator('[data-remote="api-keys"]')).toBeVisible();
});

test('the refusal is localized', async ({ page, site }) => {
  await page.goto(`${site.url}/de/dashboard/chat`);
  const fallback = page.locator('[data-remote-fallback="chat"]');
  await expect(fallback).toHaveAttribute('data-fallback-kind', 'incompatible');
  const heading = await fallback.getByRole('heading').textContent();
  expect(heading).not.toBe('This part of Atelier needs an update');
  await expect(fallback).toContainText('99');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
