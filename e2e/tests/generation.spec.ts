import { deflateSync } from 'node:zlib';
import { testOnSharedSite as test, expect } from '../support/site.ts';

/** A small real PNG (a gradient), written here so the upload is a genuine picture. */
function gradientPng(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([(x * 255) / w, (y * 255) / h, 128], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('video: an empty prompt gets the seed message; a real video is generated, followed and played', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/video/create`);
  await page.getByRole('button', { name: 'Generate video' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please input the prompt to describe the content of the video you want to generate' })).toBeVisible();
  await page.getByLabel('Prompt').fill('waves rolling onto a beach at sunset');
  await page.getByLabel('Documentary').check();
  await page.getByLabel('Length (seconds)').fill('2');
  await page.getByRole('button', { name: 'Generate video' }).click();
  await expect(page).toHaveURL(/\/dashboard\/video\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Check automatically')).toBeChecked();
  await expect(page.getByRole('heading', { name: 'Video generate completed' })).toBeVisible({ timeout: 60_000 });
  const player = page.locator('video');
  await expect(player).toHaveAttribute('src', /\/api\/media\//);
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThan(0);
  expect(await player.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(2);
  // It is in the gallery, newest first.
  await page.getByRole('link', { name: 'All videos' }).click();
  await expect(page.locator('main li').first()).toContainText('waves rolling onto a beach at sunset');
});

test('image to image: the uploaded picture is transformed', async ({ page, site }) => {
  await page.goto(`${site.url}/dashboard/image/create/image-to-image`);
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByRole('alert')).toHaveText('Choose a picture to transform.');
  await page.getByLabel(/Your picture/).setInputFiles({ name: 'gradient.png', mimeType: 'image/png', buffer: gradientPng(256, 256) });
  await expect(page.getByAltText('The picture you chose')).toBeVisible();
  await page.getByLabel('Prompt').fill('watercolor, warm sunset palette');
  await page.getByLabel('Size').selectOption('512x512');
  await page.getByRole('button', { name: 'Generate image' }).click();
  const img = page.locator('[data-task-status="completed"] img');
  await expect(img).toHaveCount(1, { timeout: 30_000 });
  expect(await img.evaluate((i: HTMLImageElement) => (i.complete ? i.naturalWidth : new Promise((r) => (i.onload = () => r(i.naturalWidth)))))).toBe(512);
});
