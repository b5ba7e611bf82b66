import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody, ErrorCode } from '@atelier/api';
import { DomainError } from '../domain/errors.ts';
import { RateLimited } from '../domain/loginGuard.ts';
import { errorMessage, requestLanguage } from './errorCatalogue.ts';

type Issues = { path: string; message: string }[];

/** The one error answer: a catalogue code, its message in the caller's language, the status. */
export function apiError(c: Context, code: ErrorCode, status: number, issues?: Issues) {
  const language = requestLanguage({ cookie: c.req.header('cookie'), acceptLanguage: c.req.header('accept-language') });
  const body: ErrorBody = { error: { code, message: errorMessage(code, language), status, ...(issues ? { issues } : {}) } };
  return c.json(body, status as ContentfulStatusCode);
}

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/** Every failure under /api ends here, so none leaks a stack or an HTML page. */
export function handleApiError(err: Error, c: Context) {
  if (err instanceof RateLimited) c.header('retry-after', String(err.retryAfterSec));
  if (err instanceof DomainError) return apiError(c, err.code, err.status, err.issues);
  if (err instanceof HTTPException) {
    // Hono's own refusals: malformed JSON (400), body too large (413).
    const code = CODE_FOR_STATUS[err.status] ?? (err.status >= 500 ? 'SYSTEM_ERROR' : 'UNKNOWN_ERROR');
    return apiError(c, code, err.status);
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, err);
  return apiError(c, 'SYSTEM_ERROR', 500);
}

/** @hono/zod-openapi calls this after validating a request part; failures become VALIDATION_FAILED. */
export function validationHook(
  result: { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
  c: Context,
) {
  if (result.success) return;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return apiError(c, 'VALIDATION_FAILED', 400, issues);
}
