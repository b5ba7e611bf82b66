// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { ApiError, createApiClient, toApiError } from './index.ts';

/** A real HTTP server that fails a configurable number of times, counting requests. */
let server: Server;
let base = '';
const hits = new Map<string, number>();
beforeAll(async () => {
  server = createServer((req, res) => {
    const n = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, n);
    const [, kind, status] = req.url!.split('/');
    res.setHeader('content-type', 'application/json');
    if (kind === 'flaky' && n === 1) {
      res.statusCode = Number(status);
      return res.end(JSON.stringify({ error: { code: 'SYSTEM_ERROR', message: 'try again', status: Number(status) } }));
    }
    if (kind === 'fail') {
      res.statusCode = Number(status);
      return res.end(JSON.stringify({ error: { code: status === '402' ? 'INSUFFICIENT_BALANCE' : 'UNAUTHORIZED', message: 'no', status: Number(status) } }));
    }
    res.end(JSON.stringify({ ok: true, n }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('api client', () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET once on %i', async (status) => {
    const api = createApiClient({ baseURL: base });
    await expect(api(`/flaky/${status}/get`)).resolves.toEqual({ ok: true, n: 2 });
    expect(hits.get(`/flaky/${status}/get`)).toBe(2);
  });

  it('never retries a POST', async () => {
    const api = createApiClient({ baseURL: base });
    await expect(api('/flaky/503/post', { method: 'POST', body: {} })).rejects.toMatchObject({ code: 'SYSTEM_ERROR', status: 503 });
    expect(hits.get('/flaky/503/post')).toBe(1);
  });

  it('does not retry other statuses', async () => {
    const api = createApiClient({ baseURL: base });
    await expect(api('/fail/402/x')).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 402 });
    expect(hits.get('/fail/402/x')).toBe(1);
  });

  it('reports a 401 so the shell can expire the session', async () => {
    const onUnauthorized = vi.fn();
    const api = createApiClient({ baseURL: base, onUnauthorized });
    const err = await api('/fail/401/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('UNAUTHORIZED');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });
});

describe('toApiError', () => {
  it('maps unknown failures to catalogue codes', () => {
    expect(toApiError(new TypeError('fetch failed')).code).toBe('SYSTEM_ERROR');
    expect(toApiError({ status: 500 }).code).toBe('SYSTEM_ERROR');
    expect(toApiError({ status: 401 }).code).toBe('UNAUTHORIZED');
    expect(toApiError({ status: 400, data: { error: { code: 'NOT_A_CODE' } } }, 'SUBMIT_TASK_FAILED').code).toBe('SUBMIT_TASK_FAILED');
  });
});
