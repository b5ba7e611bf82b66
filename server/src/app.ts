import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Services } from './services.ts';
import { mountDeployRoot } from './hosting/deploy-root.ts';
import { NEVER_CACHE } from './hosting/cache-policy.ts';
import { apiError, handleApiError } from './http/apiErrors.ts';
import { createRouter } from './http/openapi.ts';
import { originCheck } from './http/originCheck.ts';
import { SESSION_COOKIE, sessionAuth } from './http/sessionAuth.ts';
import { adminRoutes } from './routes/admin.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';
import { authRoutes } from './routes/auth.ts';
import { contentRoutes } from './routes/content.ts';
import { creditRoutes } from './routes/credits.ts';
import { healthRoutes } from './routes/health.ts';
import { orderRoutes } from './routes/orders.ts';
import { pricingRoutes } from './routes/pricing.ts';
import { stripeWebhookRoutes } from './routes/stripeWebhook.ts';
import { chatRoutes } from './routes/chat.ts';
import { mediaRoutes } from './routes/media.ts';
import { modelRoutes } from './routes/models.ts';
import { taskRoutes } from './routes/tasks.ts';
import { createBusinessApi } from './routes/v1/index.ts';
import { webhookRoutes } from './routes/webhooks.ts';

const UPLOAD_PATHS = new Set(['/api/tasks/images/edits']);

/** The product's HTTP API under /api, documented at /api/openapi.json. */
export function createApi(services: Services) {
  const { config } = services;
  const api = createRouter();
  api.onError(handleApiError);
  const tooLarge = { onError: (c: Context) => apiError(c, 'PAYLOAD_TOO_LARGE', 413) };
  const smallBodies = bodyLimit({ maxSize: config.bodyLimitBytes, ...tooLarge });
  // Pictures for image-to-image are bigger than any other body.
  const uploads = bodyLimit({ maxSize: config.generation.uploadLimitBytes, ...tooLarge });
  api.use('*', (c, next) => (UPLOAD_PATHS.has(c.req.path) ? uploads(c, next) : smallBodies(c, next)));
  const guard = originCheck({ siteUrl: config.publicConfig.siteUrl, allowedOrigins: config.allowedOrigins });
  // Stripe's webhook is authenticated by its signature and comes from Stripe's servers.
  api.use('*', async (c, next) => (c.req.path === '/api/webhooks/stripe' ? next() : guard(c, next)));
  api.use('*', sessionAuth(services));

  api.route('/', healthRoutes());
  api.route('/', authRoutes(services));
  api.route('/', contentRoutes(services));
  api.route('/', apiKeyRoutes(services));
  api.route('/', creditRoutes(services));
  api.route('/', pricingRoutes(services));
  api.route('/', orderRoutes(services));
  api.route('/', adminRoutes(services));
  api.route('/', stripeWebhookRoutes(services));
  api.route('/', modelRoutes(services));
  api.route('/', taskRoutes(services));
  api.route('/', mediaRoutes(services));
  api.route('/', webhookRoutes(services));
  api.route('/', chatRoutes(services));

  api.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'Set by login and register. Writes must also send an Origin header of the site.',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The token the server writes to <data>/operator.json (mode 0600) at start; acts as an admin.',
  });
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Atelier API',
      version: '1.0.0',
      description: 'The dashboard API. Every error answers `{ error: { code, message, status } }` with a code from the catalogue.',
    },
    servers: [{ url: '/api' }],
  });
  // Unknown /api paths answer in the API's error shape, never with the app's HTML.
  api.all('*', (c) => apiError(c, 'NOT_FOUND', 404));
  return api;
}

export function createApp(services: Services) {
  const { config } = services;
  const app = new Hono();
  app.route('/api', createApi(services));
  app.route('/v1', createBusinessApi(services));
  app.get('/config.json', (c) => {
    c.header('cache-control', NEVER_CACHE);
    return c.json(config.publicConfig);
  });
  mountDeployRoot(app, {
    deployDir: config.deployDir,
    remoteOverrides: config.remoteOverrides,
    siteUrl: config.siteUrlConfigured ? config.publicConfig.siteUrl : undefined,
    content: services.content,
  });
  return app;
}
