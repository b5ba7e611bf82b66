/**
 * Local stand-ins for generation backends, speaking their real protocols over real HTTP, and the
 * media files they hand out. The OpenAI-compatible one is here because two test files use it;
 * the ComfyUI, AUTOMATIC1111 and Replicate ones live in their own test files.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { expect } from 'vitest';
import type { BackendEndpoint } from '../../src/engines/adapters/backendHttp.ts';
import { EngineError, type GenerationContext } from '../../src/engines/types.ts';

/** A real, decodable PNG of that size (one grey colour), made the way the format says. */
export function pngOf(width: number, height: number, grey = 128): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(width + 1, grey);
  row[0] = 0; // no filter
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]),
  );
}

/** Starts like an MP4 (an `ftyp` box), which is all the adapters look at. */
export const FAKE_MP4 = new Uint8Array(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4), Buffer.from('isomavc1'), Buffer.alloc(2048, 7)]));
/** Starts like an MP3 (an ID3 tag). */
export const FAKE_MP3 = new Uint8Array(Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(2048, 0xfb)]));

export interface StandIn {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A Hono app on a real port of 127.0.0.1. */
export async function listenStandIn(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<StandIn> {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections are refused, as by a backend that is down. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export function endpointFor(baseUrl: string, overrides: Partial<BackendEndpoint> = {}): BackendEndpoint {
  return { label: 'test backend', baseUrl, headers: {}, idleTimeoutMs: 5000, pollIntervalMs: 20, maxDownloadBytes: 64 * 1024 * 1024, ...overrides };
}

/** A generation context that records progress, with a controller to cancel it. */
export function recordingContext(): GenerationContext & { controller: AbortController; progress: { fraction: number; etaMs?: number }[] } {
  const controller = new AbortController();
  const progress: { fraction: number; etaMs?: number }[] = [];
  return {
    controller,
    progress,
    signal: controller.signal,
    onProgress(fraction, etaMs) {
      progress.push({ fraction, ...(etaMs !== undefined ? { etaMs } : {}) });
    },
  };
}

/** The EngineError a promise rejects with, checked for its code and transience. */
export async function engineFailure(promise: Promise<unknown>, code: string, transient: boolean): Promise<EngineError> {
  const err = await promise.then(
    () => {
      throw new Error('expected the engine to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  expect(err).toMatchObject({ code, transient });
  return err as EngineError;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface VideoJob {
  id: string;
  prompt: string;
  polls: number;
  fields: Record<string, string>;
}

/**
 * An OpenAI-compatible backend. What it does follows the prompt:
 *   `garbage`   answers 200 with a body that is not JSON
 *   `notapng`   answers b64_json that decodes to text
 *   `refuse`    400 with OpenAI's error shape
 *   `overload`  503
 *   `linked`    answers with `url`s to files it serves
 *   `fail`      (videos) the job ends failed
 *   `cut`       (chat) the stream stops mid-answer
 *   `badchunk`  (chat) streams a chunk that is not JSON
 *   `silent`    (chat) never answers
 * Every request is recorded.
 */
export class FakeOpenAI {
  readonly requests: { method: string; path: string; auth: string | undefined; body: Record<string, unknown>; files: Record<string, { type: string; name: string; bytes: Uint8Array }> }[] = [];
  readonly videos = new Map<string, VideoJob>();
  apiKey = 'sk-test-backend';
  private standIn: StandIn | null = null;
  private counter = 0;

  get url(): string {
    return `${this.standIn!.url}/v1`;
  }

  async start(): Promise<void> {
    const app = new Hono<{ Variables: { parsed: Record<string, unknown> } }>();
    app.use('*', async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      const body: Record<string, unknown> = {};
      const files: Record<string, { type: string; name: string; bytes: Uint8Array }> = {};
      if (type.startsWith('application/json')) Object.assign(body, await c.req.json());
      else if (type.startsWith('multipart/form-data')) {
        const form = await c.req.formData();
        for (const [k, v] of form.entries()) {
          if (typeof v === 'string') body[k] = v;
          else files[k] = { type: v.type, name: v.name, bytes: new Uint8Array(await v.arrayBuffer()) };
        }
      }
      this.requests.push({ method: c.req.method, path: c.req.path, auth: c.req.header('authorization'), body, files });
      if (c.req.path.startsWith('/v1/') && c.req.header('authorization') !== `Bearer ${this.apiKey}`) {
        return c.json({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401);
      }
      c.set('parsed', body);
      await next();
    });
    const bodyOf = (c: { get(k: 'parsed'): Record<string, unknown> }) => c.get('parsed');
    const trouble = (prompt: string) => {
      if (/\brefuse\b/.test(prompt)) return Response.json({ error: { message: 'Your request was rejected by the safety system', type: 'invalid_request_error', code: 'content_policy_violation' } }, { status: 400 });
      if (/\boverload\b/.test(prompt)) return Response.json({ error: { message: 'The engine is currently overloaded', type: 'server_error' } }, { status: 503 });
      if (/\bgarbage\b/.test(prompt)) return new Response('<html>Bad gateway, but with a 200</html>', { status: 200, headers: { 'content-type': 'text/html' } });
      return null;
    };
    const pictures = (prompt: string, n: number, size: string) => {
      const [w, h] = size.split('x').map(Number);
      return Array.from({ length: n }, (_, i) => {
        if (/\bnotapng\b/.test(prompt)) return { b64_json: Buffer.from('this is not a picture at all').toString('base64') };
        if (/\blinked\b/.test(prompt)) return { url: `${this.standIn!.url}/files/picture-${i}.png?w=${w}&h=${h}` };
        return { b64_json: Buffer.from(pngOf(w!, h!, 40 * i)).toString('base64'), revised_prompt: prompt };
      });
    };
    app.get('/files/:name', (c) => new Response(pngOf(Number(c.req.query('w')), Number(c.req.query('h'))) as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } }));

    app.post('/v1/images/generations', (c) => {
      const b = bodyOf(c);
      const prompt = String(b.prompt);
      return trouble(prompt) ?? c.json({ created: Math.floor(Date.now() / 1000), data: pictures(prompt, Number(b.n ?? 1), String(b.size ?? '1024x1024')) });
    });
    app.post('/v1/images/edits', (c) => {
      const b = bodyOf(c);
      const prompt = String(b.prompt);
      const image = this.requests.at(-1)!.files.image;
      if (!image) return c.json({ error: { message: "Missing required parameter: 'image'." } }, 400);
      return trouble(prompt) ?? c.json({ created: Math.floor(Date.now() / 1000), data: pictures(prompt, Number(b.n ?? 1), String(b.size ?? '256x256')) });
    });

    app.post('/v1/chat/completions', async (c) => {
      const b = bodyOf(c);
      const messages = b.messages as { role: string; content: string }[];
      const last = messages.at(-1)?.content ?? '';
      if (/\bsilent\b/.test(last)) {
        await sleep(60_000);
        return c.text('too late');
      }
      const early = trouble(last);
      if (early) return early;
      const words = `You said: ${last}`.split(' ');
      const id = `chatcmpl-${++this.counter}`;
      if (!b.stream) {
        return c.json({ id, object: 'chat.completion', model: b.model, choices: [{ index: 0, message: { role: 'assistant', content: words.join(' ') }, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: words.length, total_tokens: 7 + words.length } });
      }
      const chunk = (delta: object, finish: string | null, extra: object = {}) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: b.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(`: keep-alive\n\n${chunk({ role: 'assistant', content: '' }, null)}`));
          for (const [i, w] of words.entries()) {
            if (/\bcut\b/.test(last) && i === 2) {
              controller.close();
              return;
            }
            if (/\bbadchunk\b/.test(last) && i === 1) controller.enqueue(encoder.encode('data: {"choices": [oops\n\n'));
            // Split one event across two writes, and use CRLF, as proxies do.
            const text = chunk({ content: i === 0 ? w : ` ${w}` }, null).replace(/\n/g, '\r\n');
            controller.enqueue(encoder.encode(text.slice(0, 9)));
            await sleep(2);
            controller.enqueue(encoder.encode(text.slice(9)));
          }
          controller.enqueue(encoder.encode(chunk({}, b.max_tokens === 3 ? 'length' : 'stop')));
          const streamOptions = b.stream_options as { include_usage?: boolean } | undefined;
          if (streamOptions?.include_usage) controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id, choices: [], usage: { prompt_tokens: 11, completion_tokens: words.length } })}\n\n`));
          controller.enqueue(encoder.encode('data: [DONE]\n\n'));
          controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } });
    });

    const videoObject = (job: VideoJob) => {
      const done = job.polls >= 3;
      const failed = /\bfail\b/.test(job.prompt) && job.polls >= 1;
      return {
        id: job.id,
        object: 'video',
        model: job.fields.model,
        status: failed ? 'failed' : done ? 'completed' : job.polls === 0 ? 'queued' : 'in_progress',
        progress: failed ? 0 : Math.min(100, job.polls * 33),
        created_at: Math.floor(Date.now() / 1000),
        seconds: job.fields.seconds,
        size: job.fields.size,
        error: failed ? { code: 'moderation_blocked', message: 'The video was blocked by moderation' } : null,
      };
    };
    app.post('/v1/videos', (c) => {
      const fields = bodyOf(c) as Record<string, string>;
      const early = trouble(String(fields.prompt));
      if (early) return early;
      const job = { id: `video_${++this.counter}`, prompt: String(fields.prompt), polls: 0, fields };
      this.videos.set(job.id, job);
      return c.json(videoObject(job));
    });
    app.get('/v1/videos/:id', (c) => {
      const job = this.videos.get(c.req.param('id'));
      if (!job) return c.json({ error: { message: 'Video not found' } }, 404);
      job.polls++;
      return c.json(videoObject(job));
    });
    app.get('/v1/videos/:id/content', (c) => {
      const job = this.videos.get(c.req.param('id'));
      if (!job || job.polls < 3) return c.json({ error: { message: 'Video is not ready' } }, 404);
      return new Response(FAKE_MP4 as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'video/mp4' } });
    });
    this.standIn = await listenStandIn(app);
  }

  /** The last request to a path, with its parsed body. */
  last(path: string) {
    const found = this.requests.filter((r) => r.path === path).at(-1);
    if (!found) throw new Error(`no request to ${path}`);
    return found;
  }

  stop(): Promise<void> {
    return this.standIn ? this.standIn.close() : Promise.resolve();
  }
}
