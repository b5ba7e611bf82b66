import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, type Site } from '../support/site.ts';

/**
 * The seed's "App update": a deployment made while a page is open is announced (by the service
 * worker and by the version check), "Refresh Now" loads it, and the worker serves the shell
 * offline. The version check runs every 60 minutes in the product; these tests shorten it
 * through the test-only `window.__ATELIER_VERSION_CHECK_MS__` (shell/src/updates/constants.ts).
 */
const CHECK_MS = 400;
// A worker installs and precaches the shell in each test; leave room on a loaded two-core machine.
test.describe.configure({ timeout: 120_000 });
const NOTICE = { name: 'A new version is available' };

test.beforeEach(async ({ page }) => {
  await page.addInitScript((ms) => Object.assign(window, { __ATELIER_VERSION_CHECK_MS__: ms }), CHECK_MS);
});

function deployedTimestamp(site: Site): number {
  return (JSON.parse(readFileSync(join(site.deployDir, 'version.json'), 'utf8')) as { timestamp: number }).timestamp;
}

/**
 * What publishing a new shell does to the deploy root, done by hand: a changed index.html (with
 * a marker to recognise it), the service worker's precache revision for it, and/or version.json.
 */
function deploy(site: Site, change: { build?: string; timestamp?: number }) {
  if (change.build) {
    const index = join(site.deployDir, 'index.html');
    const html = readFileSync(index, 'utf8').replace(/<meta name="atelier-e2e-build"[^>]*>/, '');
    writeFileSync(index, html.replace('</head>', `<meta name="atelier-e2e-build" content="${change.build}"></head>`));
    const sw = join(site.deployDir, 'sw.js');
    const source = readFileSync(sw, 'utf8');
    const next = source.replace(/("url":"\/index\.html","revision":")[^"]+"/, `$1${change.build}"`);
    expect(next, 'sw.js carries the precache revision of index.html').not.toBe(source);
    writeFileSync(sw, next);
  }
  if (change.timestamp) writeFileSync(join(site.deployDir, 'version.json'), `${JSON.stringify({ timestamp: change.timestamp })}\n`);
}

const appVersion = (page: Page) => page.evaluate(() => Number(localStorage.getItem('app_version') ?? 0));
const build = (page: Page) => page.locator('meta[name="atelier-e2e-build"]');

/** Opens a page and waits until the service worker controls it and the first check stored the version. */
async function open(page: Page, site: Site, path = '/pricing') {
  await page.goto(site.url + path);
  await expect(page.locator('[data-remote]')).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 45_000 });
  await expect.poll(() => appVersion(page)).toBe(deployedTimestamp(site));
}

/** The URLs in the worker's precache (Workbox stores them with their revision). */
const precached = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
    return urls;
  });

/** Clicks "Refresh Now" and waits for the page it reloads. */
async function refreshNow(page: Page, how: 'click' | 'keyboard' = 'click') {
  const button = page.getByRole('region', NOTICE).getByRole('button', { name: 'Refresh Now' });
  const reloaded = page.waitForEvent('load');
  if (how === 'keyboard') {
    await button.focus();
    await expect(button).toBeFocused();
    await button.press('Enter');
  } else {
    await button.click();
  }
  await reloaded;
}

const waitingWorker = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null);

test('a deployment while the page is open: the notice appears, stays, and Refresh Now loads the new version', async ({ page, site }) => {
  await open(page, site);
  const first = deployedTimestamp(site);
  const precache = await precached(page);
  expect(precache.some((u) => /\/static\/js\/index\.[0-9a-f]+\.js$/.test(u)), 'the shell entry is precached').toBe(true);
  expect(precache.some((u) => /\/index\.html\?__WB_REVISION__=/.test(u)), 'index.html is precached').toBe(true);
  expect(precache.filter((u) => /\/remotes|version\.json|config\.json|\/api\//.test(u)), 'nothing the server must answer fresh').toEqual([]);

  const next = first + 60_000;
  deploy(site, { build: 'second', timestamp: next });

  const notice = page.getByRole('region', NOTICE);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Updates are ready, click to refresh');
  // Bottom right, and persistent: several checks later it is still there.
  const box = (await notice.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width * 0.75);
  expect(box.y + box.height).toBeGreaterThan(viewport.height * 0.75);
  await page.waitForTimeout(CHECK_MS * 4);
  await expect(notice).toBeVisible();
  expect(await appVersion(page)).toBe(first);
  const axe = await new AxeBuilder({ page }).include('[data-update-source]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`), 'accessibility of the notice').toEqual([]);
  // The new worker has installed and waits for the user.
  await expect.poll(() => waitingWorker(page)).toBe('installed');

  await refreshNow(page, 'keyboard');
  await expect(build(page)).toHaveAttribute('content', 'second');
  await expect(page.locator('[data-remote="public-site"]')).toBeVisible();
  await expect.poll(() => appVersion(page)).toBe(next);
  // The new deployment's worker took over; nothing announces itself again.
  expect(await waitingWorker(page)).toBeNull();
  expect((await precached(page)).some((u) => u.endsWith('/index.html?__WB_REVISION__=second'))).toBe(true);
  await page.waitForTimeout(CHECK_MS * 4);
  await expect(page.getByRole('region', NOTICE)).toHaveCount(0);
});

test('the service worker alone announces a new deployment (UPDATE_AVAILABLE)', async ({ page, site }) => {
  await open(page, site);
  const messages: unknown[] = [];
  await page.exposeFunction('__swMessage', (data: unknown) => messages.push(data));
  await page.evaluate(() => navigator.serviceWorker.addEventListener('message', (e) => (window as unknown as { __swMessage(d: unknown): void }).__swMessage(e.data)));

  deploy(site, { build: 'worker-only' }); // version.json unchanged: only the worker can tell
  const notice = page.getByRole('region', NOTICE);
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-update-source', 'service-worker');
  expect(messages).toContainEqual({ type: 'UPDATE_AVAILABLE' });

  await refreshNow(page);
  await expect(build(page)).toHaveAttribute('content', 'worker-only');
  expect(await waitingWorker(page)).toBeNull();
  await page.waitForTimeout(CHECK_MS * 4);
  await expect(page.getByRole('region', NOTICE)).toHaveCount(0);
});

test('the version check alone announces a newer version.json', async ({ page, site }) => {
  await open(page, site);
  const next = deployedTimestamp(site) + 1000;
  deploy(site, { timestamp: next }); // the shell's files unchanged: the worker has nothing new
  const notice = page.getByRole('region', NOTICE);
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-update-source', 'version-check');
  await refreshNow(page);
  await expect.poll(() => appVersion(page)).toBe(next);
  await page.waitForTimeout(CHECK_MS * 4);
  await expect(page.getByRole('region', NOTICE)).toHaveCount(0);
});

test('the service worker serves the shell offline', async ({ page, context, site }) => {
  await open(page, site, '/dashboard/image');
  // The network's copy of the document changes: a page showing the change did not come from the worker.
  const index = join(site.deployDir, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</head>', '<meta name="atelier-e2e-build" content="network"></head>'));
  await context.setOffline(true);
  const response = await page.reload();
  expect(response?.fromServiceWorker()).toBe(true);
  await expect(page.locator('#root')).not.toBeEmpty();
  await expect(page.getByRole('navigation', { name: 'Dashboard navigation' })).toBeVisible();
  await expect(build(page)).toHaveCount(0);
  // An app route that was never visited starts offline too.
  await page.goto(`${site.url}/ja/dashboard/video`);
  await expect(page.getByRole('navigation').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await context.setOffline(false);
});
