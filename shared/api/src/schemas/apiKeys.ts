import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Every secret starts with this, so leaked keys are recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'atl_';

export const ApiKeyStatus = z.enum(['active', 'inactive']).meta({ id: 'ApiKeyStatus' });
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;

export const ApiKey = z
  .object({
    id: z.uuid(),
    /** Null when the user gave none; the dashboard shows "Unnamed". */
    name: z.string().nullable(),
    /** The secret's recognisable start and end, e.g. `atl_Ab3d…9xYz`. */
    maskedKey: z.string(),
    status: ApiKeyStatus,
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.object({ keys: z.array(ApiKey) }).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const CreateApiKeyBody = z
  .object({ name: z.string().trim().max(64).optional() })
  .meta({ id: 'CreateApiKeyBody' });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

/** The only answer that ever carries the secret. */
export const CreatedApiKey = z
  .object({ key: ApiKey, secret: z.string().startsWith(API_KEY_PREFIX) })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const UpdateApiKeyBody = z.object({ status: ApiKeyStatus }).meta({ id: 'UpdateApiKeyBody' });
export type UpdateApiKeyBody = z.infer<typeof UpdateApiKeyBody>;
