/**
 * The seed's error catalogue as stable codes. The server answers every error with one of these;
 * the front end shows `common:errors.<code>` in the user's language.
 */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'INSUFFICIENT_BALANCE',
  'SYSTEM_ERROR',
  'UNKNOWN_ERROR',
  'FETCH_API_KEYS_FAILED',
  'CREATE_API_KEY_FAILED',
  'UPDATE_API_KEY_STATUS_FAILED',
  'DELETE_API_KEY_FAILED',
  'COPY_API_KEY_FAILED',
  'SUBMIT_TASK_FAILED',
  'QUERY_STATUS_FAILED',
  'QUERY_VIDEO_LIST_FAILED',
  'VIDEO_GENERATE_FAILED',
  'QUERY_STATUS_TIMEOUT',
  'PARSE_RESPONSE_ERROR',
  'IMAGE_GENERATE_FAILED',
  'IMAGE_QUERY_FAILED',
  'UNKNOWN_MODEL',
  'COPY_FAILED',
  'SESSION_EXPIRED',
  'CREDITS_NOT_ENOUGH',
  'LOGIN_REQUIRED',
  'VIDEO_PROMPT_REQUIRED',
  // The API's own failures, beyond the seed's list: each has a message in every language.
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'FORBIDDEN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  'ACCOUNT_DISABLED',
  'RESET_LINK_INVALID',
  'ORDER_NOT_PENDING',
  'PAYMENT_FAILED',
  'BOT_CHECK_FAILED',
  'OAUTH_FAILED',
  'OAUTH_CANCELLED',
  'OAUTH_EMAIL_UNVERIFIED',
  // Generation tasks and the business API.
  'GENERATION_TIMEOUT',
  'ENGINE_UNAVAILABLE',
  'MUSIC_GENERATE_FAILED',
  'TASK_INTERRUPTED',
  'TASK_CANCELLED',
  'TASK_NOT_READY',
  'TASK_ALREADY_FINISHED',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error shape every `/api` route answers with. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; status: number; issues?: { path: string; message: string }[] };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The i18n key of a code's localized message. */
export function errorMessageKey(code: ErrorCode): `common:errors.${ErrorCode}` {
  return `common:errors.${code}`;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Normalises anything thrown by a request into an ApiError with a catalogue code. */
export function toApiError(err: unknown, fallback: ErrorCode = 'SYSTEM_ERROR'): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; statusCode?: number; data?: unknown; message?: string } | null;
  const status = e?.status ?? e?.statusCode ?? 0;
  const body = e?.data as Partial<ErrorBody> | undefined;
  if (body?.error && isErrorCode(body.error.code)) return new ApiError(body.error.code, status, body.error.message ?? '');
  if (status === 401) return new ApiError('UNAUTHORIZED', status, e?.message ?? '');
  if (status === 0) return new ApiError(fallback, 0, e?.message ?? 'network error');
  return new ApiError(status >= 500 ? 'SYSTEM_ERROR' : fallback, status, e?.message ?? '');
}
