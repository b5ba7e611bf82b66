/**
 * Business-API errors in OpenAI's shape, so the official SDK raises its typed errors:
 * `{ error: { message, type, param, code } }`. `code` is the catalogue code; `message` its text in
 * the caller's language (Accept-Language), with the detail of what was wrong for invalid input.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { ErrorCode } from '@atelier/api';
import { DomainError } from '../../domain/errors.ts';
import { errorMessage, requestLanguage } from '../../http/errorCatalogue.ts';

const TYPE_FOR_STATUS: Record<number, string> = {
  401: 'authentication_error',
  402: 'insufficient_balance',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  429: 'rate_limit_error',
};

export function openAIError(c: Context, code: ErrorCode, status: number, detail?: { message?: string; param?: string | null }) {
  const language = requestLanguage({ acceptLanguage: c.req.header('accept-language') });
  const base = errorMessage(code, language);
  const type = TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  return c.json({ error: { message: detail?.message ? `${base}: ${detail.message}` : base, type, param: detail?.param ?? null, code } }, status as ContentfulStatusCode);
}

export function invalidRequest(error: ZodError): DomainError {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return new DomainError('VALIDATION_FAILED', 400, issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '), issues);
}

export function handleBusinessError(err: Error, c: Context) {
  if (err instanceof DomainError) {
    const detail = err.code === 'VALIDATION_FAILED' || err.code === 'UNKNOWN_MODEL' ? err.message : undefined;
    return openAIError(c, err.code, err.status, { ...(detail ? { message: detail } : {}), param: err.issues?.[0]?.path ?? (err.code === 'UNKNOWN_MODEL' ? 'model' : null) });
  }
  if (err instanceof HTTPException) {
    if (err.status === 413) return openAIError(c, 'PAYLOAD_TOO_LARGE', 413);
    if (err.status < 500) return openAIError(c, 'VALIDATION_FAILED', err.status, { message: err.message });
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, err);
  return openAIError(c, 'SYSTEM_ERROR', 500);
}
