import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { mountDeployRoot } from '../src/hosting/deploy-root.ts';
import { robotsTxt } from '../src/hosting/robots.ts';

function site(siteUrl?: string) {
  const app = new Hono();
  mountDeployRoot(app, { deployDir: join(tmpdir(), 'atelier-no-deploy'), remoteOverrides: {}, ...(siteUrl ? { siteUrl } : {}) });
  return app;
}

describe('robots.txt', () => {
  it('allows everything and points at the sitemap index', () => {
    expect(robotsTxt('https://atelier.example/')).toBe('User-agent: *\nAllow: /\n\nSitemap: https://atelier.example/sitemap.xml\n');
  });

  it('is served at the site root with the configured site URL', async () => {
    const res = await site('https://atelier.example').request('http://10.0.0.5:8080/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('Sitemap: https://atelier.example/sitemap.xml\n');
  });

  it('uses the origin the request came to when no site URL is configured', async () => {
    const res = await site().request('http://studio.example.org/robots.txt');
    expect(await res.text()).toBe('User-agent: *\nAllow: /\n\nSitemap: http://studio.example.org/sitemap.xml\n');
  });
});
