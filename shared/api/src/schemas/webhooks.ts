import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Sent when a task reaches its end; a cancelled task counts as failed. */
export const WEBHOOK_EVENT_TYPES = [
  'image.completed',
  'image.failed',
  'video.completed',
  'video.failed',
  'music.completed',
  'music.failed',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({ example: 'https://example.com/hooks/atelier' });

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    /** Empty: every event type. */
    events: z.array(WebhookEventType),
    enabled: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

export const CreateWebhookBody = z
  .object({
    url: HttpUrl,
    description: z.string().trim().max(200).optional(),
    events: z.array(WebhookEventType).max(WEBHOOK_EVENT_TYPES.length).optional(),
  })
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** The only answer that carries the signing secret (`whsec_…`, Standard Webhooks). */
export const CreatedWebhookEndpoint = z
  .object({ endpoint: WebhookEndpoint, secret: z.string().startsWith('whsec_') })
  .meta({ id: 'CreatedWebhookEndpoint' });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const UpdateWebhookBody = z
  .object({
    url: HttpUrl.optional(),
    description: z.string().trim().max(200).nullable().optional(),
    events: z.array(WebhookEventType).max(WEBHOOK_EVENT_TYPES.length).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to change' })
  .meta({ id: 'UpdateWebhookBody' });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;
