import AxeBuilder from '@axe-core/playwright';
import { testOnSharedSite as test, expect } from '../support/site.ts';

for (const path of ['/', '/pricing', '/auth/login', '/dashboard/image', '/ja/dashboard/video', '/test']) {
  test(`no serious or critical accessibility violation on ${path}`, async ({ page, site }) => {
    await page.goto(site.url + path);
    await expect(page.locator('[data-remote] h1, main h1').first()).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  });
}
