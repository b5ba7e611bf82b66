import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type Site } from '../support/site.ts';
import { FIXTURES_DIR } from '../support/paths.ts';

const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard navigation' });

/** State in the page: the signed-in session and its balance, and a marker a reload would lose. */
let primedCredits = '';
async function primeSession(page: Page, site: Site) {
  await page.goto(`${site.url}/dashboard/image`);
  await expect(page.getByTestId('shell-credits')).toHaveText(/^\d+ credits$/);
  primedCredits = (await page.getByTestId('shell-credits').textContent())!;
  await expect(page.getByTestId('user-email')).toHaveText('Ada Tester');
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

/** The failing area shows a fallback; the rest of the product and the session keep working. */
async function expectIsolated(page: Page, kind: string) {
  const fallback = page.locator('[data-remote-fallback="chat"]');
  await expect(fallback).toHaveAttribute('data-fallback-kind', kind);
  await expect(fallback.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(dashboardNav(page)).toBeVisible();
  await expect(page.getByTestId('shell-credits')).toHaveText(primedCredits);
  await expect(page.getByTestId('user-email')).toHaveText('Ada Tester');
  await dashboardNav(page).getByRole('link', { name: 'Video' }).click();
  await expect(page.locator('[data-remote="video"]')).toBeVisible();
  await expect(page.getByTestId('shell-credits')).toHaveText(primedCredits);
  await dashboardNav(page).getByRole('link', { name: 'Chat' }).click();
  await expect(fallback).toBeVisible();
}

function goodChat(site: Site) {
  return site.registry().remotes.chat!;
}

test('a remote whose manifest 404s shows a fallback; publishing it and Retry recover without a reload', async ({ page, site }) => {
  const good = goodChat(site);
  site.setRemote('chat', { ...site.versionEntry('chat', '9.9.9'), previous: null, history: [] });
  await primeSession(page, site);
  await dashboardNav(page).getByRole('link', { name: 'Chat' }).click();
  await expectIsolated(page, 'unavailable');
  await expect(page.locator('[data-remote-fallback="chat"] h2')).toHaveText('This part of Atelier could not be loaded');

  // The fault is fixed: the missing version is published.
  site.publish('chat', '9.9.9', join(site.deployDir, 'remotes', 'chat', good.version));
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('[data-remote="chat"]')).toBeVisible();
  await expectNoReload(page);
  await expect(page.getByTestId('shell-credits')).toHaveText(primedCredits);
});

test('a remote whose entry script fails shows a fallback; a rollback and Retry recover without a reload', async ({ page, site }) => {
  const good = goodChat(site);
  site.publish('chat', '0.0.2-broken', join(site.deployDir, 'remotes', 'chat', good.version));
  writeFileSync(join(site.deployDir, 'remotes', 'chat', '0.0.2-broken', 'remoteEntry.js'), 'throw new Error("fixture: broken remote entry");\n');
  site.setRemote('chat', { ...site.versionEntry('chat', '0.0.2-broken'), previous: null, history: [] });
  await primeSession(page, site);
  await dashboardNav(page).getByRole('link', { name: 'Chat' }).click();
  await expectIsolated(page, 'unavailable');

  site.setRemote('chat', good);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('[data-remote="chat"]')).toHaveAttribute('data-remote-version', good.version);
  await expectNoReload(page);
});

test('a remote whose component throws is contained; a rollback and Retry recover without a reload', async ({ page, site }) => {
  const good = goodChat(site);
  site.publish('chat', '0.0.1-throw', join(FIXTURES_DIR, 'chat-throw'));
  site.setRemote('chat', { ...site.versionEntry('chat', '0.0.1-throw'), previous: null, history: [] });
  await primeSession(page, site);
  await dashboardNav(page).getByRole('link', { name: 'Chat' }).click();
  await expectIsolated(page, 'crashed');
  await expect(page.locator('[data-remote-fallback="chat"] h2')).toHaveText('This part of Atelier stopped working');

  site.setRemote('chat', good);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('[data-remote="chat"]')).toHaveAttribute('data-remote-version', good.version);
  await expectNoReload(page);
});

test('a failed load falls back to the previous good version the registry names', async ({ page, site }) => {
  const good = goodChat(site);
  site.setRemote('chat', {
    ...site.versionEntry('chat', '9.9.9'),
    previous: { version: good.version, entry: good.entry, releasedAt: good.releasedAt },
    history: [{ version: good.version, entry: good.entry, releasedAt: good.releasedAt }],
  });
  await page.goto(`${site.url}/dashboard/chat`);
  await expect(page.locator('[data-remote="chat"]')).toHaveAttribute('data-remote-version', good.version);
  await expect(page.locator('[data-remote-fallback]')).toHaveCount(0);
});

test('the fallback is localized', async ({ page, site }) => {
  site.setRemote('chat', { ...site.versionEntry('chat', '9.9.9'), previous: null, history: [] });
  await page.goto(`${site.url}/fr/dashboard/chat`);
  const fallback = page.locator('[data-remote-fallback="chat"]');
  await expect(fallback).toHaveAttribute('data-fallback-kind', 'unavailable');
  await expect(fallback.getByRole('heading')).not.toHaveText('This part of Atelier could not be loaded');
  await expect(fallback.getByRole('button')).not.toHaveText('Retry');
});
