export { ERROR_CODES, isErrorCode, errorMessageKey, ApiError, toApiError } from './errors.ts';
export type { ErrorCode, ErrorBody } from './errors.ts';
export { createApiClient, RETRY_STATUS_CODES } from './client.ts';
export type { ApiClient, ApiClientOptions } from './client.ts';
export * from './schemas/index.ts';
