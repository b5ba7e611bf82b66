import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGenerationSettings } from '../src/config.ts';
import { creditLedger, tasks } from '../src/db/schema.ts';
import { balanceOf } from '../src/domain/creditsLedger.ts';
import { DATABASES } from './support/databases.ts';
import { closedPort, FakeOpenAI } from './support/fakeBackends.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

/**
 * A backend configured the way an operator does it (ATELIER_BACKENDS), reached through our own
 * business API: the picture comes from the local OpenAI-protocol server; a backend that is down
 * or answers garbage fails the task with its code and refunds it exactly once.
 */
describe.each(DATABASES)('a configured OpenAI-compatible backend through /v1 on %s', (kind) => {
  const backend = new FakeOpenAI();
  let server: TestServer;
  let user: SignedIn;
  let key: string;

  beforeAll(async () => {
    await backend.start();
    const backends = [
      { id: 'studio', type: 'openai', baseUrl: backend.url, apiKeyEnv: 'STUDIO_OPENAI_KEY', models: [{ id: 'studio-image', kind: 'image', remoteModel: 'dall-e-2', price: 3, displayName: 'Studio DALL·E 2' }, { id: 'studio-chat', kind: 'chat', remoteModel: 'gpt-4o-mini' }] },
      { id: 'offline', type: 'openai', baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, requestTimeoutSec: 2, models: [{ id: 'offline-image', kind: 'image', price: 2 }] },
    ];
    const settings = loadGenerationSettings({ ATELIER_BACKENDS: JSON.stringify(backends), STUDIO_OPENAI_KEY: backend.apiKey });
    // No model list given: the server builds its own from the settings, as in production.
    server = await startTestServer(kind, { generation: { ...settings, retryBaseMs: 20, maxAttempts: 3 } });
    await server.services.generation.start();
    user = await signUp(server, 'adapters');
    key = (await call(server, '/api/api-keys', { cookie: user.cookie, body: { name: 'backend test' } })).body.secret;
  });
  afterAll(async () => {
    await server?.close();
    await backend.stop();
  });

  const v1 = (path: string, body?: unknown) => call(server, path, { headers: { authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { body, origin: null }) });

  async function lastTask(model: string) {
    const [task] = await server.database.db.select().from(tasks).where(and(eq(tasks.userId, user.id), eq(tasks.model, model))).orderBy(desc(tasks.createdAt)).limit(1);
    const ledger = await server.database.db.select().from(creditLedger).where(eq(creditLedger.taskId, task!.id)).orderBy(creditLedger.id);
    return { task: task!, ledger: ledger.map((e) => [e.kind, e.amount]) };
  }

  it('lists the backend’s models beside the built-in ones, without its address or key', async () => {
    const res = await v1('/v1/models');
    const model = res.body.data.find((m: { id: string }) => m.id === 'studio-image');
    expect(model).toMatchObject({ id: 'studio-image', object: 'model', owned_by: 'openai', kind: 'image', engine: 'openai', price: 3, displayName: 'Studio DALL·E 2', capabilities: ['text-to-image', 'image-to-image'] });
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['atelier-procedural-image-1', 'studio-image', 'offline-image']));
    expect(JSON.stringify(res.body)).not.toContain(backend.apiKey);
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
  });

  it('generates pictures through POST /v1/images/generations on our server, from the backend, charging the model’s price', async () => {
    const before = await balanceOf(server.database.db, user.id);
    const res = await v1('/v1/images/generations', { model: 'studio-image', prompt: 'a lighthouse at dusk', size: '512x512', n: 2, response_format: 'b64_json' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cost: 6, size: '512x512', output_format: 'png' });
    expect(res.body.data).toHaveLength(2);
    const png = Buffer.from(res.body.data[0].b64_json, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(512);
    const sent = backend.last('/v1/images/generations');
    expect(sent.auth).toBe(`Bearer ${backend.apiKey}`);
    expect(sent.body).toMatchObject({ model: 'dall-e-2', prompt: 'a lighthouse at dusk', n: 2, size: '512x512' });
    expect(await balanceOf(server.database.db, user.id)).toBe(before - 6);
    const { task, ledger } = await lastTask('studio-image');
    expect(task).toMatchObject({ status: 'completed', attempts: 1 });
    expect(ledger).toEqual([['spend', -6]]);
  });

  it('streams a chat answer from the backend through POST /v1/chat/completions', async () => {
    const res = await server.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'studio-chat', messages: [{ role: 'user', content: 'hello there' }], stream: true }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('You said: hello there');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(backend.last('/v1/chat/completions').body).toMatchObject({ model: 'gpt-4o-mini', stream: true });
  });

  it('fails the task with ENGINE_UNAVAILABLE after the retries when the backend is down, refunding it exactly once', async () => {
    const before = await balanceOf(server.database.db, user.id);
    const res = await v1('/v1/images/generations', { model: 'offline-image', prompt: 'anything at all', size: '256x256' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('ENGINE_UNAVAILABLE');
    const { task, ledger } = await lastTask('offline-image');
    expect(task).toMatchObject({ status: 'failed', errorCode: 'ENGINE_UNAVAILABLE', attempts: 3 });
    expect(task.errorMessage).toMatch(/ECONNREFUSED/);
    expect(ledger).toEqual([['spend', -2], ['refund', 2]]);
    expect(await balanceOf(server.database.db, user.id)).toBe(before);
    // Later sweeps and restarts move nothing more.
    await new Promise((r) => setTimeout(r, 200));
    expect((await lastTask('offline-image')).ledger).toHaveLength(2);
  });

  it('fails the task at once with IMAGE_GENERATE_FAILED when the backend answers garbage, refunding it exactly once', async () => {
    const before = await balanceOf(server.database.db, user.id);
    const res = await v1('/v1/images/generations', { model: 'studio-image', prompt: 'garbage please', size: '256x256' });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('IMAGE_GENERATE_FAILED');
    const { task, ledger } = await lastTask('studio-image');
    expect(task).toMatchObject({ status: 'failed', errorCode: 'IMAGE_GENERATE_FAILED', attempts: 1 });
    expect(task.errorMessage).toMatch(/not JSON/);
    expect(ledger).toEqual([['spend', -3], ['refund', 3]]);
    expect(await balanceOf(server.database.db, user.id)).toBe(before);
  });
});
