import type { MiddlewareHandler } from 'hono';
import { apiKeyAuthenticator } from '../domain/apiKeys.ts';
import { cacheMaxAgeMs } from '../domain/changes.ts';
import { DomainError } from '../domain/errors.ts';
import type { Services } from '../services.ts';

export interface ApiKeyEnv {
  Variables: { apiKey: { keyId: string; userId: string } };
}

/**
 * Guards the business API (/v1): `Authorization: Bearer atl_...`. A deactivated or deleted key is
 * refused at once: the cached answer is dropped before the change returns (`apiKeyAuthenticator`).
 */
export function apiKeyAuth({ db, config }: Services): MiddlewareHandler<ApiKeyEnv> {
  const authenticate = apiKeyAuthenticator(db, { maxAgeMs: cacheMaxAgeMs(config) });
  return async (c, next) => {
    const secret = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const key = secret ? await authenticate(secret) : null;
    if (!key) {
      c.header('www-authenticate', 'Bearer');
      throw new DomainError('UNAUTHORIZED', 401, 'missing, unknown or inactive API key');
    }
    c.set('apiKey', key);
    await next();
  };
}
