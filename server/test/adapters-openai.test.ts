import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../src/engines/adapters/media.ts';
import { openAIChatEngine, openAIImageEngine, openAIVideoEngine } from '../src/engines/adapters/openai.ts';
import type { BackendModelSettings } from '../src/engines/adapters/settings.ts';
import type { ChatChunk } from '../src/engines/types.ts';
import { closedPort, collect, endpointFor, engineFailure, FAKE_MP4, FakeOpenAI, pngOf, recordingContext } from './support/fakeBackends.ts';

const IMAGE_MODEL: BackendModelSettings = { id: 'studio-image', kind: 'image', remoteModel: 'dall-e-2', input: { quality: 'hd', user: 'atelier-{{seed}}' } };
const CHAT_MODEL: BackendModelSettings = { id: 'studio-chat', kind: 'chat', remoteModel: 'gpt-4o-mini' };
const VIDEO_MODEL: BackendModelSettings = { id: 'studio-video', kind: 'video', remoteModel: 'sora-2' };

const imageRequest = (prompt: string, extra: Partial<{ n: number; width: number; height: number }> = {}) => ({ model: 'studio-image', prompt, width: 512, height: 256, seed: 9, n: 1, ...extra });
const video = (prompt: string) => ({ model: 'studio-video', prompt, style: 'documentary' as const, durationSec: 4, width: 1280, height: 720, fps: 24, seed: 3 });

describe('the OpenAI-compatible adapter against a local OpenAI-protocol server', () => {
  const backend = new FakeOpenAI();
  let endpoint: ReturnType<typeof endpointFor>;

  beforeAll(async () => {
    await backend.start();
    endpoint = endpointFor(backend.url, { headers: { authorization: `Bearer ${backend.apiKey}` }, idleTimeoutMs: 500 });
  });
  afterAll(() => backend.stop());

  describe('images', () => {
    it('generates pictures from /images/generations as b64_json, with the key, the remote model and the operator’s extra fields', async () => {
      const engine = openAIImageEngine(endpoint, IMAGE_MODEL);
      const ctx = recordingContext();
      const files = await engine.generate({ ...imageRequest('a red kite'), n: 2, negativePrompt: 'blur' }, ctx);
      expect(files).toHaveLength(2);
      for (const f of files) {
        expect(f).toMatchObject({ contentType: 'image/png', extension: 'png', width: 512, height: 256 });
        expect(imageSize(f.data, 'image/png')).toEqual({ width: 512, height: 256 });
      }
      const sent = backend.last('/v1/images/generations');
      expect(sent.auth).toBe(`Bearer ${backend.apiKey}`);
      expect(sent.body).toEqual({ model: 'dall-e-2', prompt: 'a red kite', n: 2, size: '512x256', response_format: 'b64_json', quality: 'hd', user: 'atelier-9' });
      expect(ctx.progress.at(0)?.fraction).toBe(0);
      expect(ctx.progress.at(-1)?.fraction).toBe(1);
    });

    it('leaves response_format out for GPT Image models, and downloads pictures given as URLs', async () => {
      const engine = openAIImageEngine(endpoint, { id: 'gi', kind: 'image', remoteModel: 'gpt-image-1' });
      const files = await engine.generate(imageRequest('linked lighthouse', { width: 320, height: 200 }), recordingContext());
      expect(files[0]).toMatchObject({ contentType: 'image/png', width: 320, height: 200 });
      expect(backend.last('/v1/images/generations').body).not.toHaveProperty('response_format');
    });

    it('edits an uploaded picture through multipart /images/edits', async () => {
      const engine = openAIImageEngine(endpoint, IMAGE_MODEL);
      const upload = pngOf(64, 48);
      const files = await engine.edit({ ...imageRequest('as a watercolour'), width: 0, height: 0, image: upload, strength: 0.4 }, recordingContext());
      expect(files).toHaveLength(1);
      const sent = backend.last('/v1/images/edits');
      expect(sent.body).toMatchObject({ model: 'dall-e-2', prompt: 'as a watercolour', n: '1', response_format: 'b64_json' });
      // No size asked: the backend keeps the picture's own.
      expect(sent.body).not.toHaveProperty('size');
      expect(sent.files.image!.type).toBe('image/png');
      expect(Buffer.from(sent.files.image!.bytes).equals(Buffer.from(upload))).toBe(true);
    });

    it('fails without retry, with IMAGE_GENERATE_FAILED, on garbage: a body that is not JSON, bytes that are not a picture, a refusal', async () => {
      const engine = openAIImageEngine(endpoint, IMAGE_MODEL);
      await engineFailure(engine.generate(imageRequest('garbage'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
      const notPicture = await engineFailure(engine.generate(imageRequest('notapng'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
      expect(notPicture.message).toMatch(/not a picture/);
      const refused = await engineFailure(engine.generate(imageRequest('refuse this'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
      expect(refused.message).toMatch(/HTTP 400: Your request was rejected by the safety system/);
    });

    it('says SYSTEM_ERROR when the backend refuses the operator’s key', async () => {
      const engine = openAIImageEngine({ ...endpoint, headers: { authorization: 'Bearer wrong' } }, IMAGE_MODEL);
      const err = await engineFailure(engine.generate(imageRequest('a kite'), recordingContext()), 'SYSTEM_ERROR', false);
      expect(err.message).toMatch(/credentials/);
      expect(err.message).not.toContain('wrong');
    });

    it('fails transiently (the runner retries) when the backend is overloaded or down', async () => {
      const engine = openAIImageEngine(endpoint, IMAGE_MODEL);
      await engineFailure(engine.generate(imageRequest('overload'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
      const down = openAIImageEngine(endpointFor(`http://127.0.0.1:${await closedPort()}/v1`), IMAGE_MODEL);
      const err = await engineFailure(down.generate(imageRequest('a kite'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
      expect(err.message).toMatch(/ECONNREFUSED/);
    });
  });

  describe('chat', () => {
    it('streams the answer as deltas from server-sent events, with usage and the finish reason', async () => {
      const engine = openAIChatEngine(endpoint, CHAT_MODEL);
      const chunks = await collect(engine.complete({ model: 'studio-chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }], maxTokens: 50, temperature: 0.2, seed: 4 }, recordingContext()));
      const text = chunks.filter((c): c is Extract<ChatChunk, { type: 'delta' }> => c.type === 'delta').map((c) => c.text).join('');
      expect(text).toBe('You said: hello there');
      expect(chunks.filter((c) => c.type === 'delta').length).toBeGreaterThan(1);
      expect(chunks.at(-1)).toEqual({ type: 'done', finishReason: 'stop', usage: { promptTokens: 11, completionTokens: 4 } });
      expect(backend.last('/v1/chat/completions').body).toEqual({
        model: 'gpt-4o-mini',
        messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 50,
        temperature: 0.2,
        seed: 4,
      });
    });

    it('reports a length stop', async () => {
      const chunks = await collect(openAIChatEngine(endpoint, CHAT_MODEL).complete({ model: 'studio-chat', messages: [{ role: 'user', content: 'long one' }], maxTokens: 3 }, recordingContext()));
      expect(chunks.at(-1)).toMatchObject({ type: 'done', finishReason: 'length' });
    });

    it('stops reading when the caller stops, and lets go of the connection', async () => {
      const engine = openAIChatEngine(endpoint, CHAT_MODEL);
      const seen: string[] = [];
      for await (const chunk of engine.complete({ model: 'studio-chat', messages: [{ role: 'user', content: 'one two three four' }] }, recordingContext())) {
        if (chunk.type === 'delta') seen.push(chunk.text);
        if (seen.length === 2) break;
      }
      expect(seen).toEqual(['You', ' said:']);
    });

    it('fails on a chunk that is not JSON (SYSTEM_ERROR), and transiently on a stream cut short or a silent backend', async () => {
      const engine = openAIChatEngine(endpoint, CHAT_MODEL);
      const run = (content: string) => collect(engine.complete({ model: 'studio-chat', messages: [{ role: 'user', content }] }, recordingContext()));
      await engineFailure(run('badchunk please'), 'SYSTEM_ERROR', false);
      await engineFailure(run('cut me off now'), 'ENGINE_UNAVAILABLE', true);
      const silent = await engineFailure(run('silent'), 'ENGINE_UNAVAILABLE', true);
      expect(silent.message).toMatch(/no answer within/);
      await engineFailure(run('overload'), 'ENGINE_UNAVAILABLE', true);
    });

    it('stops at once when the caller cancels, with the caller’s reason', async () => {
      const ctx = recordingContext();
      const pending = collect(openAIChatEngine({ ...endpoint, idleTimeoutMs: 10_000 }, CHAT_MODEL).complete({ model: 'studio-chat', messages: [{ role: 'user', content: 'silent' }] }, ctx));
      setTimeout(() => ctx.controller.abort(new Error('cancelled by the owner')), 50);
      const started = Date.now();
      await expect(pending).rejects.toThrow('cancelled by the owner');
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  describe('videos', () => {
    it('creates a video, follows its progress to completed, and downloads the MP4', async () => {
      const engine = openAIVideoEngine(endpoint, VIDEO_MODEL);
      const ctx = recordingContext();
      const file = await engine.generate(video('a harbour at dawn'), ctx);
      expect(file).toMatchObject({ contentType: 'video/mp4', extension: 'mp4', width: 1280, height: 720, durationMs: 4000 });
      expect(Buffer.from(file.data).equals(Buffer.from(FAKE_MP4))).toBe(true);
      const created = backend.last('/v1/videos');
      expect(created.body).toEqual({ model: 'sora-2', prompt: 'a harbour at dawn. Style: documentary.', seconds: '4', size: '1280x720' });
      const fractions = ctx.progress.map((p) => p.fraction);
      expect(fractions.some((f) => f > 0 && f < 1)).toBe(true);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      expect(fractions.at(-1)).toBe(1);
    });

    it('fails with VIDEO_GENERATE_FAILED and the backend’s reason when the job fails', async () => {
      const err = await engineFailure(openAIVideoEngine(endpoint, VIDEO_MODEL).generate(video('fail this one'), recordingContext()), 'VIDEO_GENERATE_FAILED', false);
      expect(err.message).toMatch(/blocked by moderation/);
    });

    it('stops polling when cancelled', async () => {
      const ctx = recordingContext();
      const slow = openAIVideoEngine({ ...endpoint, pollIntervalMs: 5_000 }, VIDEO_MODEL);
      const pending = slow.generate(video('a slow one'), ctx);
      setTimeout(() => ctx.controller.abort(new Error('time limit')), 100);
      await expect(pending).rejects.toThrow('time limit');
    });
  });

  it('treats a backend that accepts the connection but never answers as down', async () => {
    const sockets: import('node:net').Socket[] = [];
    const mute: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(mute.address() as AddressInfo).port}/v1`;
    try {
      const engine = openAIVideoEngine(endpointFor(url, { idleTimeoutMs: 200 }), VIDEO_MODEL);
      const err = await engineFailure(engine.generate(video('anything'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
      expect(err.message).toMatch(/no answer within/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });
});
