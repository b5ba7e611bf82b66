import { test, expect } from '../support/site.ts';

test.use({ signedIn: false });

test('a visitor is asked to sign in before the dashboard, and comes back after signing in', async ({ page, site }) => {
  const { email, password } = await site.signedInAccount();
  await page.goto(`${site.url}/dashboard/video/create`);
  await expect(page).toHaveURL(`${site.url}/auth/login?next=%2Fdashboard%2Fvideo%2Fcreate`);
  await expect(page.locator('[data-toast]')).toHaveText('Please login first');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('[data-toast="success"]')).toHaveText('Login successful');
  await expect(page).toHaveURL(`${site.url}/dashboard/video/create`);
  await expect(page.getByTestId('user-email')).toHaveText('Ada Tester');
});

test('registering signs in with the free credits; signing out says so and ends the session', async ({ page, site }) => {
  await page.goto(`${site.url}/ja/auth/register`);
  await page.getByLabel('メール', { exact: false }).first().fill(`new-${Date.now()}@example.com`);
  await page.locator('input[name="password"]').fill('another long passphrase');
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(`${site.url}/ja/dashboard`);
  await expect(page.getByTestId('home-credits')).toHaveText('100');
  await expect(page.getByTestId('shell-credits')).toContainText('100');

  await page.getByRole('navigation', { name: /./ }).getByRole('button').last().click();
  await expect(page).toHaveURL(`${site.url}/ja`);
  const session = await page.request.get(`${site.url}/api/auth/session`);
  expect((await session.json()).user).toBeNull();
  await page.goto(`${site.url}/ja/dashboard`);
  await expect(page).toHaveURL(/\/ja\/auth\/login\?next=/);
});

test('bad input gets a clear, localized error and keeps what was typed', async ({ page, site }) => {
  await page.goto(`${site.url}/de/auth/login`);
  const email = page.locator('input[name="email"]');
  await email.fill('not-an-email');
  await page.locator('form button[type="submit"]').click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveValue('not-an-email');
  await email.fill('nobody@example.com');
  await page.locator('input[name="password"]').fill('wrong password here');
  await page.locator('form button[type="submit"]').click();
  const alert = page.getByRole('alert').filter({ hasNotText: /^$/ }).first();
  await expect(alert).toBeVisible();
  expect(await alert.textContent()).not.toMatch(/invalid|credentials|Unknown/i);
  await expect(email).toHaveValue('nobody@example.com');
});

test('a forgotten password is reset through the emailed link', async ({ page, site }) => {
  const { email } = await site.signedInAccount();
  await page.goto(`${site.url}/auth/update-password`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();
  const link = await site.latestMailLink();
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
  await page.getByLabel('Confirm the new password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(`${site.url}/dashboard`);
  await expect(page.locator('[data-toast="success"]')).toHaveText('Your new password is saved.');
});
