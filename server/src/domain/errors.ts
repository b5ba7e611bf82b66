import type { ErrorCode } from '@atelier/api';

/** A rule the request broke; the HTTP layer turns it into the API's error shape. */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: { path: string; message: string }[] | undefined;
  constructor(code: ErrorCode, status: number, detail?: string, issues?: { path: string; message: string }[]) {
    super(detail ?? code);
    this.code = code;
    this.status = status;
    this.issues = issues;
  }
}

export const notFound = (what: string) => new DomainError('NOT_FOUND', 404, `${what} not found`);
export const forbidden = (detail: string) => new DomainError('FORBIDDEN', 403, detail);
export const invalid = (path: string, message: string) =>
  new DomainError('VALIDATION_FAILED', 400, message, [{ path, message }]);

/** PostgreSQL's unique_violation, the same through both drivers. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}
