import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGenerationSettings } from '../src/config.ts';
import { webhookDeliveries, webhookEndpoints } from '../src/db/schema.ts';
import { balanceOf } from '../src/domain/creditsLedger.ts';
import { builtinModels } from '../src/engines/models.ts';
import { DATABASES } from './support/databases.ts';
import { call, signUp, type SignedIn } from './support/http.ts';
import { PNG_1X1, Script, scriptedModels } from './support/scriptedEngines.ts';
import { startTestServer, type TestServer } from './support/testServer.ts';

const IMAGE = 'atelier-procedural-image-1';
const VIDEO = 'atelier-procedural-video-1';
const MUSIC = 'atelier-procedural-music-1';
const CHAT = 'atelier-docs-chat-1';

/** The whole app listening on a real port, as the SDK needs. */
async function listen(server: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      if ('closeAllConnections' in http) http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

async function apiKey(server: TestServer, user: SignedIn): Promise<string> {
  const res = await call(server, '/api/api-keys', { cookie: user.cookie, body: { name: 'sdk' } });
  return res.body.secret;
}

/** Receives webhooks: answers with the queued statuses (then 204) and keeps what it got. */
class WebhookReceiver {
  readonly received: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
  readonly answers: number[] = [];
  url = '';
  private server: Server | null = null;
  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const answered = this.answers.shift() ?? 204;
        this.received.push({ headers: req.headers, body, answered });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop() {
    return new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DATABASES)('the business API (/v1) through the openai SDK on %s', (kind) => {
  let server: TestServer;
  let http: { url: string; close(): Promise<void> };
  let user: SignedIn;
  let client: OpenAI;
  let secret: string;
  const script = new Script();

  beforeAll(async () => {
    const settings = { ...loadGenerationSettings({}), progressIntervalMs: 50, webhooks: { timeoutMs: 2000, retryDelaysMs: [50, 50, 50] } };
    // The real built-in engines for the happy paths, scripted doubles for timing and failures.
    const models = scriptedModels(script, builtinModels());
    server = await startTestServer(kind, { generation: settings, siteUrlConfigured: false, freeCredits: 200 }, { models });
    await server.services.generation.start();
    http = await listen(server);
    user = await signUp(server, 'sdk');
    secret = await apiKey(server, user);
    client = new OpenAI({ apiKey: secret, baseURL: `${http.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await http?.close();
    await server?.close();
  });

  it('lists and retrieves models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining([IMAGE, VIDEO, MUSIC, 'echo-chat']));
    const model = await client.models.retrieve(IMAGE);
    expect(model).toMatchObject({ id: IMAGE, object: 'model', owned_by: 'atelier', kind: 'image', engine: 'builtin' });
  });

  it('generates images with the built-in engine, as b64_json and as a link', async () => {
    const b64 = await client.images.generate({ model: IMAGE, prompt: 'a lighthouse at dusk', size: '512x512', response_format: 'b64_json', seed: 42 } as never);
    const png = Buffer.from(b64.data![0]!.b64_json!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(512);
    // Same prompt and seed: the same picture.
    const again = await client.images.generate({ model: IMAGE, prompt: 'a lighthouse at dusk', size: '512x512', response_format: 'b64_json', seed: 42 } as never);
    expect(again.data![0]!.b64_json).toBe(b64.data![0]!.b64_json);
    const linked = await client.images.generate({ model: IMAGE, prompt: 'a lighthouse at dusk', size: '512x768', n: 2, response_format: 'url' });
    expect(linked.data).toHaveLength(2);
    const res = await fetch(linked.data![0]!.url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    // The link is signed: altered, it opens nothing.
    expect((await fetch(linked.data![0]!.url!.replace(/signature=./, 'signature=x'))).status).toBe(404);
  });

  it('edits an uploaded picture (multipart)', async () => {
    const edited = await client.images.edit({
      model: IMAGE,
      image: await toFile(Buffer.from(PNG_1X1), 'in.png', { type: 'image/png' }),
      prompt: 'as a warm watercolour',
      size: '512x512',
      response_format: 'b64_json',
    });
    const png = Buffer.from(edited.data![0]!.b64_json!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('answers chat completions, whole and streamed', async () => {
    const whole = await client.chat.completions.create({ model: 'echo-chat', messages: [{ role: 'user', content: 'one two three' }] });
    expect(whole.choices[0]!.message.content).toBe('three two one');
    expect(whole.choices[0]!.finish_reason).toBe('stop');
    expect(whole.usage).toMatchObject({ completion_tokens: 3 });
    // The engine's citations ride along as an extension of the message.
    expect((whole.choices[0]!.message as unknown as { citations: unknown }).citations).toEqual([{ url: '/docs/api', title: 'API guide' }]);
    const stream = await client.chat.completions.create({ model: 'echo-chat', stream: true, messages: [{ role: 'user', content: 'alpha beta gamma delta' }] });
    const parts: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      parts.push(chunk.choices[0]?.delta?.content ?? '');
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(parts.filter(Boolean).length).toBeGreaterThanOrEqual(4);
    expect(parts.join('')).toBe('delta gamma beta alpha');
    expect(finish).toBe('stop');
    // On the wire: data lines, then [DONE].
    const raw = await fetch(`${http.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await raw.text();
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('answers with the built-in docs chat, streamed', async () => {
    const stream = await client.chat.completions.create({ model: CHAT, stream: true, messages: [{ role: 'user', content: 'How do I verify webhook signatures?' }] });
    let text = '';
    let chunks = 0;
    let citations: { url: string }[] = [];
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
      citations = (chunk as unknown as { citations?: { url: string }[] }).citations ?? citations;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text.length).toBeGreaterThan(20);
    expect(Array.isArray(citations)).toBe(true);
  }, 30_000);

  it('creates, follows, lists, downloads and deletes a video with the built-in engine', async () => {
    const before = await balanceOf(server.database.db, user.id);
    let video = await client.videos.create({ model: VIDEO, prompt: 'paper boats on a puddle', seconds: '1' as never, size: '256x256' as never, style: 'animation' } as never);
    expect(video).toMatchObject({ object: 'video', model: VIDEO, size: '256x256', seconds: '1', style: 'animation', error: null });
    expect(['queued', 'in_progress', 'completed']).toContain(video.status);
    for (let i = 0; i < 600 && (video.status === 'queued' || video.status === 'in_progress'); i++) {
      await sleep(50);
      video = await client.videos.retrieve(video.id);
    }
    expect(video).toMatchObject({ status: 'completed', progress: 100 });
    expect(video.completed_at).toBeGreaterThanOrEqual(video.created_at);
    expect(await balanceOf(server.database.db, user.id)).toBe(before - 10);
    const ids: string[] = [];
    for await (const v of client.videos.list({ limit: 1 })) ids.push(v.id);
    expect(ids).toContain(video.id);
    const content = await client.videos.downloadContent(video.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const mp4 = Buffer.from(await content.arrayBuffer());
    expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
    const deleted = await client.videos.delete(video.id);
    expect(deleted).toEqual({ id: video.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(video.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  }, 60_000);

  it('pages through videos newest first with after', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await client.videos.create({ model: 'scripted-video', prompt: `clip ${i}` } as never)).id);
    const page = await client.videos.list({ limit: 2 });
    expect(page.data.map((v) => v.id)).toEqual([made[2], made[1]]);
    expect(page.has_more).toBe(true);
    const next = await page.getNextPage();
    expect(next.data[0]!.id).toBe(made[0]);
    const oldestFirst = await client.videos.list({ limit: 100, order: 'asc' });
    const ours = oldestFirst.data.map((v) => v.id).filter((id) => made.includes(id));
    expect(ours).toEqual(made);
  });

  it('refuses a video content download before it is ready', async () => {
    const video = await client.videos.create({ model: 'scripted-video', prompt: 'slow:800 waves' } as never);
    const err = await client.videos.downloadContent(video.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('TASK_NOT_READY');
  });

  it('runs music tasks in the same shape, with the built-in engine', async () => {
    let track = await client.post<Record<string, any>>('/music', { body: { model: MUSIC, prompt: 'calm lo-fi piano, rainy evening', seconds: 3 } });
    expect(track).toMatchObject({ object: 'music', model: MUSIC, seconds: '3' });
    for (let i = 0; i < 600 && (track.status === 'queued' || track.status === 'in_progress'); i++) {
      await sleep(50);
      track = await client.get<Record<string, any>>(`/music/${track.id}`);
    }
    expect(track.status).toBe('completed');
    const list = await client.get<{ data: { id: string }[] }>('/music');
    expect(list.data.map((t) => t.id)).toContain(track.id);
    const res = await fetch(`${http.url}/v1/music/${track.id}/content`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.subarray(0, 3).toString() === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);
    expect(await client.delete(`/music/${track.id}`)).toMatchObject({ deleted: true, object: 'music.deleted' });
  }, 60_000);

  it('answers errors in OpenAI’s shape, which the SDK raises as typed errors', async () => {
    const anonymous = new OpenAI({ apiKey: 'atl_not-a-key', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const unauthorized = await anonymous.models.list().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauthorized as InstanceType<typeof OpenAI.APIError>).code).toBe('UNAUTHORIZED');
    const unknown = await client.images.generate({ model: 'dall-e-9', prompt: 'x' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError);
    expect(unknown).toMatchObject({ status: 400, code: 'UNKNOWN_MODEL', param: 'model', type: 'invalid_request_error' });
    const noPrompt = await client.videos.create({ model: VIDEO, prompt: '' } as never).catch((e: unknown) => e);
    expect(noPrompt).toMatchObject({ status: 400, code: 'VIDEO_PROMPT_REQUIRED' });
    const poor = await signUp(server, 'poor');
    const poorClient = new OpenAI({ apiKey: await apiKey(server, poor), baseURL: `${http.url}/v1`, maxRetries: 0 });
    await server.database.db.execute(sql`UPDATE credit_balances SET balance = 0 WHERE user_id = ${poor.id}`);
    const broke = await poorClient.videos.create({ model: VIDEO, prompt: 'x' } as never).catch((e: unknown) => e);
    expect(broke).toMatchObject({ status: 402, code: 'INSUFFICIENT_BALANCE', type: 'insufficient_balance' });
    const raw = await fetch(`${http.url}/v1/videos/${crypto.randomUUID()}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(await raw.json()).toEqual({ error: { message: expect.any(String), type: 'not_found_error', param: null, code: 'NOT_FOUND' } });
  });

  it('makes POSTs idempotent: replay, 409 while in flight, 422 for another body', async () => {
    const before = await balanceOf(server.database.db, user.id);
    const key = `idem-${crypto.randomUUID()}`;
    const first = await client.videos.create({ model: 'scripted-video', prompt: 'replayed clip' } as never, { headers: { 'Idempotency-Key': key } });
    const { data: again, response } = await client.videos.create({ model: 'scripted-video', prompt: 'replayed clip' } as never, { headers: { 'Idempotency-Key': key } }).withResponse();
    expect(again.id).toBe(first.id);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server.database.db, user.id)).toBe(before - 10);
    const other = await client.videos.create({ model: 'scripted-video', prompt: 'a different clip' } as never, { headers: { 'Idempotency-Key': key } }).catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    // An image request waits for its pictures; a repeat meanwhile is told to come back.
    const slowKey = `idem-${crypto.randomUUID()}`;
    const body = { model: 'scripted-image', prompt: 'slow:700 patience', response_format: 'b64_json' as const };
    const slow = client.images.generate(body, { headers: { 'Idempotency-Key': slowKey } });
    await sleep(200);
    const meanwhile = await client.images.generate(body, { headers: { 'Idempotency-Key': slowKey } }).catch((e: unknown) => e);
    expect(meanwhile).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    const done = await slow;
    const replay = await client.images.generate(body, { headers: { 'Idempotency-Key': slowKey } });
    expect(replay.data![0]!.b64_json).toBe(done.data![0]!.b64_json);
    expect(script.calls.filter((c) => c.prompt === 'slow:700 patience')).toHaveLength(1);
    // With its automatic retries, the SDK's repeat of a streamed answer is replayed too.
    const chatKey = `idem-${crypto.randomUUID()}`;
    const chat = { model: 'echo-chat', stream: true as const, messages: [{ role: 'user' as const, content: 'x y' }] };
    const a: string[] = [];
    for await (const chunk of await client.chat.completions.create(chat, { headers: { 'Idempotency-Key': chatKey } })) a.push(chunk.id);
    await sleep(100);
    const b: string[] = [];
    for await (const chunk of await client.chat.completions.create(chat, { headers: { 'Idempotency-Key': chatKey } })) b.push(chunk.id);
    expect(b).toEqual(a);
  });

  it('limits requests per key with RateLimit headers and 429', async () => {
    const limited = await startTestServer(kind, { generation: { ...loadGenerationSettings({}), rateLimit: { max: 3, windowMs: 60_000 } } }, { models: scriptedModels(new Script()) });
    const limitedHttp = await listen(limited);
    try {
      const someone = await signUp(limited);
      const sdk = new OpenAI({ apiKey: await apiKey(limited, someone), baseURL: `${limitedHttp.url}/v1`, maxRetries: 0 });
      const other = new OpenAI({ apiKey: await apiKey(limited, someone), baseURL: `${limitedHttp.url}/v1`, maxRetries: 0 });
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { response } = await sdk.models.list().withResponse();
        remaining.push(response.headers.get('ratelimit-remaining')!);
        expect(response.headers.get('ratelimit-limit')).toBe('3');
        expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await sdk.models.list().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number((refused as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after'))).toBeGreaterThan(0);
      // Limits are per key.
      expect((await other.models.list()).data.length).toBeGreaterThan(0);
    } finally {
      await limitedHttp.close();
      await limited.close();
    }
  }, 60_000);

  it('signs webhooks in the Standard Webhooks format, and retries until delivered', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    try {
      const hook = await call(server, '/api/webhooks', { cookie: user.cookie, body: { url: receiver.url, events: ['video.completed', 'video.failed'] } });
      expect(hook.status).toBe(201);
      expect(hook.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      receiver.answers.push(500, 503);
      const ok = await client.videos.create({ model: 'scripted-video', prompt: 'webhook clip' } as never);
      const failed = await client.videos.create({ model: 'scripted-video', prompt: 'fail this clip' } as never);
      // Music events are not subscribed to.
      await client.post('/music', { body: { model: 'scripted-music', prompt: 'not announced' } });
      for (let i = 0; i < 200 && receiver.received.filter((r) => r.answered === 204).length < 2; i++) await sleep(50);
      const verifier = new OpenAI({ apiKey: 'unused', baseURL: `${http.url}/v1`, webhookSecret: hook.body.secret });
      const delivered = receiver.received.filter((r) => r.answered === 204);
      const events = await Promise.all(delivered.map((r) => verifier.webhooks.unwrap(r.body, r.headers as Record<string, string>)));
      const byTask = Object.fromEntries(events.map((e) => [(e as any).data.id, e]));
      expect(byTask[ok.id]).toMatchObject({ object: 'event', type: 'video.completed', data: { id: ok.id, status: 'completed' } });
      expect(byTask[failed.id]).toMatchObject({ type: 'video.failed', data: { id: failed.id, status: 'failed', error: { code: 'VALIDATION_FAILED' } } });
      // Each message was retried under the same webhook-id until it got through: 2 refusals, 2 deliveries.
      const byMessage = new Map<string, number[]>();
      for (const r of receiver.received) byMessage.set(String(r.headers['webhook-id']), [...(byMessage.get(String(r.headers['webhook-id'])) ?? []), r.answered]);
      expect(byMessage.size).toBe(2);
      for (const answers of byMessage.values()) expect(answers.at(-1)).toBe(204);
      expect(receiver.received.map((r) => r.answered).sort()).toEqual([204, 204, 500, 503]);
      // The receiver answers before the sender records the delivery: wait for the record.
      const deliveryRows = () => server.database.db.select().from(webhookDeliveries).innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId)).where(eq(webhookEndpoints.id, hook.body.endpoint.id));
      await expect.poll(async () => (await deliveryRows()).map((r) => r.webhook_deliveries.status), { timeout: 10_000 }).toEqual(['delivered', 'delivered']);
      const rows = await deliveryRows();
      expect(rows.reduce((n, r) => n + r.webhook_deliveries.attempts, 0)).toBe(4);
      // A tampered body fails verification.
      await expect(verifier.webhooks.unwrap(delivered[0]!.body.replace('video', 'music'), delivered[0]!.headers as Record<string, string>)).rejects.toThrow();
      // Endpoint management.
      const list = await call(server, '/api/webhooks', { cookie: user.cookie });
      expect(list.body.endpoints).toEqual([expect.objectContaining({ id: hook.body.endpoint.id, url: receiver.url, enabled: true })]);
      expect(JSON.stringify(list.body)).not.toContain(hook.body.secret);
      const paused = await call(server, `/api/webhooks/${hook.body.endpoint.id}`, { method: 'PATCH', cookie: user.cookie, body: { enabled: false } });
      expect(paused.body.enabled).toBe(false);
      expect((await call(server, `/api/webhooks/${hook.body.endpoint.id}`, { method: 'DELETE', cookie: user.cookie })).status).toBe(204);
    } finally {
      await receiver.stop();
    }
  }, 60_000);
});
