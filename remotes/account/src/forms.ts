import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { isErrorCode } from '@atelier/api';

/** Field → message key, from a failed schema check of the shared payload schema. */
export function fieldErrors(error: z.ZodError, keys: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!out[field] && keys[field]) out[field] = keys[field];
  }
  return out;
}

/** The catalogue message for anything an API call threw, in the user's language. */
export function apiErrorMessage(t: TFunction, err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return t(`common:errors.${isErrorCode(code) ? code : 'UNKNOWN_ERROR'}`);
}

/** Only same-site paths may be a post-login destination (no open redirects). */
export function safeNext(next: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}
