export { ERROR_CODES, isErrorCode, errorMessageKey, ApiError, toApiError } from './errors.ts';
export type { ErrorCode, ErrorBody } from './errors.ts';
export { api, configureApi, createApiClient, RETRY_STATUS_CODES } from './client.ts';
export type { ApiClient, ApiClientOptions } from './client.ts';
// The zod schemas are at `@atelier/api/schemas`: the shell's first load must not carry zod.
