/**
 * One cold page load in headless Chromium, measured through the DevTools protocol: the JS and
 * CSS fetched before the page is usable (gzip bytes), the longest chain of requests that had to
 * happen one after another before it, and the first-paint and usable times.
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';

export interface LoadMetrics {
  /** gzip -6 bytes of every JS and CSS response finished before the page was usable. */
  jsCssGzipBytes: number;
  jsCssRequests: number;
  /** Length of the longest initiator chain (document = 1) among requests before usable. */
  roundTrips: number;
  firstContentfulPaintMs: number;
  usableMs: number;
}

interface Req {
  url: string;
  type: string;
  parentUrl: string | null;
  finished: number | null;
  requestId: string;
}

/** Marks, in page time, the moment the route's own content (a remote's heading) is on screen. */
const USABLE_PROBE = `(() => {
  const check = () => {
    if (document.querySelector('[data-remote] h1')) {
      window.__usableAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  document.addEventListener('DOMContentLoaded', () => { observer.observe(document.body, { childList: true, subtree: true }); check(); });
})();`;

function initiatorUrl(initiator: { type: string; url?: string; stack?: { callFrames: { url: string }[]; parent?: unknown } }): string | null {
  if (initiator.url) return initiator.url;
  let stack = initiator.stack as { callFrames: { url: string }[]; parent?: unknown } | undefined;
  while (stack) {
    const frame = stack.callFrames.find((f) => f.url);
    if (frame) return frame.url;
    stack = stack.parent as typeof stack;
  }
  return null;
}

export async function measureLoad(browser: Browser, url: string): Promise<LoadMetrics> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.addInitScript(USABLE_PROBE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const reqs = new Map<string, Req>();
  // CDP timestamps are monotonic seconds; wallTime (epoch seconds) on the same event links the clocks.
  let monoMinusWall: number | null = null;
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string }; type?: string; timestamp: number; wallTime: number; initiator: Parameters<typeof initiatorUrl>[0] }) => {
    monoMinusWall ??= e.timestamp - e.wallTime;
    reqs.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', parentUrl: initiatorUrl(e.initiator), finished: null, requestId: e.requestId });
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string; timestamp: number }) => {
    const r = reqs.get(e.requestId);
    if (r) r.finished = e.timestamp;
  });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined, null, { timeout: 30_000 });
  const timing = await page.evaluate(() => ({
    usable: (window as unknown as { __usableAt: number }).__usableAt,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    origin: performance.timeOrigin,
  }));
  const usableMono = (timing.origin + timing.usable) / 1000 + (monoMinusWall ?? 0);

  const before = [...reqs.values()].filter((r) => r.finished !== null && r.finished <= usableMono + 0.001);
  const byUrl = new Map<string, Req>();
  for (const r of reqs.values()) if (!byUrl.has(r.url)) byUrl.set(r.url, r);
  const depthCache = new Map<string, number>();
  const depth = (r: Req, guard = 0): number => {
    const cached = depthCache.get(r.requestId);
    if (cached !== undefined) return cached;
    const parent = r.parentUrl ? byUrl.get(r.parentUrl) : undefined;
    const d = parent && parent !== r && guard < 50 ? depth(parent, guard + 1) + 1 : 1;
    depthCache.set(r.requestId, d);
    return d;
  };
  let gzipBytes = 0;
  let jsCss = 0;
  for (const r of before) {
    if (r.type !== 'Script' && r.type !== 'Stylesheet') continue;
    const body = (await cdp.send('Network.getResponseBody', { requestId: r.requestId })) as { body: string; base64Encoded: boolean };
    const raw = body.base64Encoded ? Buffer.from(body.body, 'base64') : Buffer.from(body.body);
    gzipBytes += gzipSync(raw, { level: 6 }).length;
    jsCss += 1;
  }
  const roundTrips = Math.max(0, ...before.map((r) => depth(r)));
  await context.close();
  return { jsCssGzipBytes: gzipBytes, jsCssRequests: jsCss, roundTrips, firstContentfulPaintMs: timing.fcp, usableMs: timing.usable };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
