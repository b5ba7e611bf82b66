/** One zod schema per payload of the product's HTTP API, shared by the server and the front end. */
export * from './common.ts';
export * from './auth.ts';
export * from './content.ts';
export * from './apiKeys.ts';
export * from './credits.ts';
export * from './pricing.ts';
export * from './orders.ts';
export * from './admin.ts';
export * from './tasks.ts';
export * from './webhooks.ts';
export * from './chat.ts';
