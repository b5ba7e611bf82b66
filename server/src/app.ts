import { Hono } from 'hono';
import type { ServerConfig } from './config.ts';
import { mountDeployRoot } from './hosting/deploy-root.ts';
import { NEVER_CACHE } from './hosting/cache-policy.ts';
import { healthRoutes } from './routes/health.ts';

export function createApp(config: ServerConfig) {
  const app = new Hono();
  app.route('/api', healthRoutes());
  app.get('/config.json', (c) => {
    c.header('cache-control', NEVER_CACHE);
    return c.json(config.publicConfig);
  });
  // Unknown /api paths answer in the API's error shape, never with the app's HTML.
  app.all('/api/*', (c) =>
    c.json({ error: { code: 'UNKNOWN_ERROR', message: 'No such API route', status: 404 } }, 404),
  );
  mountDeployRoot(app, { deployDir: config.deployDir, remoteOverrides: config.remoteOverrides });
  return app;
}
