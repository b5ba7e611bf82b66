import type { MiddlewareHandler } from 'hono';
import { authenticateApiKey } from '../domain/apiKeys.ts';
import { DomainError } from '../domain/errors.ts';
import type { Services } from '../services.ts';

export interface ApiKeyEnv {
  Variables: { apiKey: { keyId: string; userId: string } };
}

/**
 * Guards the business API (/v1): `Authorization: Bearer atl_...`. The key is looked up on every
 * request, so a deactivated or deleted key is refused at once.
 */
export function apiKeyAuth({ db }: Services): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    const secret = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const key = secret ? await authenticateApiKey(db, secret) : null;
    if (!key) {
      c.header('www-authenticate', 'Bearer');
      throw new DomainError('UNAUTHORIZED', 401, 'missing, unknown or inactive API key');
    }
    c.set('apiKey', key);
    await next();
  };
}
