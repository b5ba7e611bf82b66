import { ofetch, type $Fetch, type FetchOptions } from 'ofetch';
import { toApiError } from './errors.ts';

/** The seed's retry policy: once, on these statuses, and only for non-mutating methods. */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504] as const;

export interface ApiClientOptions {
  baseURL?: string;
  /** Called when the server answers 401: the shell marks the session expired. */
  onUnauthorized?: () => void;
}

export type ApiClient = <T>(path: string, options?: FetchOptions<'json'>) => Promise<T>;

/** The one HTTP client. Errors come out as ApiError carrying a catalogue code. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const base: $Fetch = ofetch.create({
    baseURL: options.baseURL ?? '/',
    credentials: 'same-origin',
    retryStatusCodes: [...RETRY_STATUS_CODES],
    // ofetch retries once by default for GET/HEAD/OPTIONS and never for mutating methods.
    onResponseError({ response }) {
      if (response.status === 401) options.onUnauthorized?.();
    },
  });
  return async <T>(path: string, init?: FetchOptions<'json'>) => {
    try {
      return (await base<T>(path, init)) as T;
    } catch (err) {
      throw toApiError(err);
    }
  };
}

let configured: ApiClient = createApiClient();

/** The shell configures the page's client once (401 handling); remotes then just call `api`. */
export function configureApi(options: ApiClientOptions): void {
  configured = createApiClient(options);
}

/**
 * The page's API client. This package is a federated singleton, so the shell's configuration
 * reaches every remote.
 */
export const api: ApiClient = (path, options) => configured(path, options);
