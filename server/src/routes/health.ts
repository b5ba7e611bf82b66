import { Hono } from 'hono';

export function healthRoutes() {
  const app = new Hono();
  const startedAt = new Date().toISOString();
  app.get('/health', (c) => c.json({ status: 'ok', startedAt }));
  // Accounts arrive with the server issue; until then every visitor is anonymous.
  app.get('/auth/session', (c) => c.json({ user: null }));
  return app;
}
