import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import { ErrorResponse } from '@atelier/api/schemas';
import type { AppEnv } from './appEnv.ts';
import { validationHook } from './apiErrors.ts';

/** Every /api router: invalid input answers VALIDATION_FAILED in the API's error shape. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export function jsonContent<T extends ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** `required` makes a missing or non-JSON body fail validation instead of reading as `{}`. */
export function jsonBody<T extends ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

const ERROR_DESCRIPTIONS = {
  400: 'Invalid input (VALIDATION_FAILED, with issues)',
  401: 'Not signed in (LOGIN_REQUIRED), session expired (SESSION_EXPIRED) or bad credentials',
  402: 'Not enough credits (INSUFFICIENT_BALANCE)',
  403: 'Not allowed (FORBIDDEN, ACCOUNT_DISABLED), or the bot challenge failed (BOT_CHECK_FAILED)',
  404: 'No such item, or not yours (NOT_FOUND)',
  409: 'Conflicts with the current state',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  416: 'The byte range is outside the file',
  422: 'The Idempotency-Key was used before for a different request (IDEMPOTENCY_KEY_REUSED)',
  429: 'Too many attempts (RATE_LIMITED); see Retry-After',
  502: 'The payment provider failed (PAYMENT_FAILED)',
} as const;

export function errorResponses<S extends keyof typeof ERROR_DESCRIPTIONS>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, jsonContent(ErrorResponse, ERROR_DESCRIPTIONS[s])])) as Record<
    S,
    ReturnType<typeof jsonContent<typeof ErrorResponse>>
  >;
}

type Security = Record<string, string[]>[];
export const SESSION_SECURITY: Security = [{ sessionCookie: [] }];
export const ADMIN_SECURITY: Security = [{ sessionCookie: [] }, { operatorToken: [] }];
