import { api } from '@atelier/api';
import type { ApiKey, ApiKeyList, ApiKeyStatus, CreatedApiKey } from '@atelier/api/schemas';

/** The dashboard's calls for API keys (session cookie). */
export const apiKeysClient = {
  list: async (): Promise<ApiKey[]> => (await api<ApiKeyList>('/api/api-keys')).keys,
  create: (name: string): Promise<CreatedApiKey> => api<CreatedApiKey>('/api/api-keys', { method: 'POST', body: name.trim() ? { name: name.trim() } : {} }),
  setStatus: (id: string, status: ApiKeyStatus): Promise<ApiKey> => api<ApiKey>(`/api/api-keys/${id}`, { method: 'PATCH', body: { status } }),
  remove: (id: string): Promise<unknown> => api(`/api/api-keys/${id}`, { method: 'DELETE' }),
};
