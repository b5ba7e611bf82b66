import { testOnSharedSite as test, expect } from '../support/site.ts';

/** The seed's routes (section 2) and the remote that owns each. */
const ROUTES: [string, string][] = [
  ['/', 'public-site'],
  ['/pricing', 'public-site'],
  ['/blog', 'public-site'],
  ['/blog/first-steps', 'public-site'],
  ['/docs', 'public-site'],
  ['/legal/terms', 'public-site'],
  ['/legal/refund', 'public-site'],
  ['/legal/cookies', 'public-site'],
  ['/legal/privacy', 'public-site'],
  ['/auth/login', 'account'],
  ['/auth/register', 'account'],
  ['/auth/callback', 'account'],
  ['/auth/update-password', 'account'],
  ['/user/admin', 'account'],
  ['/user/orders', 'account'],
  ['/user/profile', 'account'],
  ['/dashboard', 'account'],
  ['/dashboard/home', 'account'],
  ['/dashboard/image', 'image'],
  ['/dashboard/image/create/text-to-image', 'image'],
  ['/dashboard/image/create/image-to-image', 'image'],
  ['/dashboard/video', 'video'],
  ['/dashboard/video/create', 'video'],
  ['/dashboard/music', 'music'],
  ['/dashboard/chat', 'chat'],
  ['/dashboard/api', 'api-keys'],
];

test('every seed route mounts its remote, unprefixed and under a language prefix', async ({ page, site }) => {
  const registry = site.registry();
  for (const [path, remote] of ROUTES) {
    const version = registry.remotes[remote]!.version;
    for (const url of [path, `/ja${path === '/' ? '' : path}`]) {
      await page.goto(site.url + url);
      const root = page.locator(`[data-remote="${remote}"]`);
      await expect(root, url).toHaveAttribute('data-remote-version', version);
      await expect(root.locator('h1').first()).not.toBeEmpty();
    }
  }
  // A placeholder page says which remote and version it is, in the page's language.
  await page.goto(`${site.url}/ja/dashboard/music`);
  await expect(page.getByTestId('remote-build')).toContainText(`music`);
  await expect(page.getByTestId('remote-build')).toContainText(registry.remotes.music!.version);
  await expect(page.getByTestId('remote-build')).not.toContainText('Served by');
});

test.describe('as a visitor', () => {
  test.use({ signedIn: false });

  test('a remote loads only when one of its routes is first visited', async ({ page, site }) => {
    const loaded = new Set<string>();
    page.on('request', (r) => {
      const m = /\/remotes\/([^/]+)\//.exec(new URL(r.url()).pathname);
      if (m) loaded.add(m[1]!);
    });
    await page.goto(`${site.url}/pricing`);
    await expect(page.locator('[data-remote="public-site"]')).toBeVisible();
    expect([...loaded]).toEqual(['public-site']);
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page.locator('[data-remote="account"]')).toBeVisible();
    expect([...loaded].sort()).toEqual(['account', 'public-site']);
  });
});

test('unknown routes get the 404 screen without loading any remote', async ({ page, site }) => {
  const remoteRequests: string[] = [];
  page.on('request', (r) => r.url().includes('/remotes/') && remoteRequests.push(r.url()));
  const res = await page.goto(`${site.url}/no/such/page`);
  expect(res?.status()).toBe(404);
  await expect(page.locator('[data-error-status="404"]')).toBeVisible();
  expect(remoteRequests).toEqual([]);
});

test('shared singletons load once: the session store and the event bus cross remotes', async ({ page, site }) => {
  // Remote "music" (loaded first) keeps a feed of the tasks other remotes submit.
  await page.goto(`${site.url}/dashboard/music`);
  await expect(page.getByTestId('task-feed')).toHaveText('No tasks submitted from other parts of Atelier yet.');
  await expect(page.getByTestId('shell-credits')).toHaveText(/^\d+ credits$/);
  const start = Number((await page.getByTestId('shell-credits').textContent())!.split(' ')[0]);
  const after = `${start - 1}`;

  // Remote "image" generates a real picture: it spends a credit in the shared store and emits
  // task:submitted; no page reload in between.
  await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Text to Image' }).click();
  await page.getByLabel('Prompt').fill('a lighthouse at dusk');
  await page.getByLabel('Size').selectOption('512x512');
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByTestId('shell-credits')).toHaveText(`${after} credits`); // the shell sees it
  await expect(page.locator('[data-task-status="completed"] img')).toHaveCount(1, { timeout: 30_000 });

  // Remote "music" sees both.
  await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Music' }).click();
  const video = page.locator('[data-remote="music"]');
  await expect(video.getByTestId('remote-credits')).toHaveText(`Credits in the shared session: ${after}`);
  await expect(video.getByTestId('task-feed')).toHaveText('1 task submitted from another part of Atelier (last from image).');

  // Every federated package has exactly one instance in the page, the shell's, used by the remotes.
  const share = await page.evaluate(() => {
    const fed = (window as unknown as { __FEDERATION__: { __SHARE__: Record<string, Record<string, Record<string, Record<string, { from: string; loaded?: boolean; useIn?: string[]; treeShaking?: { loaded?: boolean; useIn?: string[] } }>>>> } }).__FEDERATION__;
    // Every federation instance in the page points at the same share scope: count each
    // provider once, by identity.
    const seen = new Set<object>();
    const out: Record<string, { versions: string[]; from: string[]; loaded: number; useIn: string[] }> = {};
    for (const scopes of Object.values(fed.__SHARE__)) {
      for (const pkgs of Object.values(scopes)) {
        for (const [pkg, versions] of Object.entries(pkgs)) {
          const e = (out[pkg] ??= { versions: [], from: [], loaded: 0, useIn: [] });
          for (const [v, s] of Object.entries(versions)) {
            if (seen.has(s)) continue;
            seen.add(s);
            e.versions.push(v);
            e.from.push(s.from);
            if (s.loaded || s.treeShaking?.loaded) e.loaded += 1;
            e.useIn.push(...(s.useIn ?? []), ...(s.treeShaking?.useIn ?? []));
          }
        }
      }
    }
    return out;
  });
  for (const pkg of ['react', 'react-dom', 'react-router', 'i18next', 'react-i18next', 'zustand', 'mitt', '@tanstack/react-query', '@atelier/session', '@atelier/events', '@atelier/contract', '@atelier/ui', '@atelier/i18n']) {
    expect(share[pkg], pkg).toBeDefined();
    expect(share[pkg]!.versions, pkg).toHaveLength(1);
    expect(share[pkg]!.from, pkg).toEqual(['atelier_shell']);
    expect(share[pkg]!.loaded, pkg).toBe(1);
  }
  for (const pkg of ['@atelier/session', '@atelier/events', 'react/jsx-runtime']) {
    expect(share[pkg]!.useIn, pkg).toEqual(expect.arrayContaining(['atelier_shell', 'atelier_image', 'atelier_music']));
  }
});
