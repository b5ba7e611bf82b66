import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a1111ImageEngine } from '../src/engines/adapters/a1111.ts';
import { endpointOf } from '../src/engines/adapters/index.ts';
import { imageSize } from '../src/engines/adapters/media.ts';
import type { BackendModelSettings } from '../src/engines/adapters/settings.ts';
import { closedPort, endpointFor, engineFailure, listenStandIn, pngOf, recordingContext, type StandIn } from './support/fakeBackends.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An AUTOMATIC1111 web UI started with `--api --api-auth painter:secret`: txt2img and img2img
 * block until the pictures are made (a few sampling steps), /progress reports the running job,
 * /interrupt stops it. With a batch it returns the grid first, as the web UI does. Prompt words:
 * `garbage` (images that are not base64), `notapng` (base64 text), `hang` (runs until interrupted).
 */
class FakeA1111 {
  readonly calls: { path: string; auth: string | undefined; body: Record<string, any> }[] = [];
  interrupted = 0;
  private job: { step: number; steps: number; started: number; interrupted: boolean } | null = null;
  private standIn: StandIn | null = null;

  get url() {
    return this.standIn!.url;
  }

  async start() {
    const app = new Hono();
    app.use('/sdapi/*', async (c, next) => {
      if (c.req.header('authorization') !== `Basic ${Buffer.from('painter:secret').toString('base64')}`) return c.json({ detail: 'Incorrect credentials' }, 401);
      await next();
    });
    const generate = async (path: string, body: Record<string, any>) => {
      this.calls.push({ path, auth: undefined, body });
      if (typeof body.prompt !== 'string' || !Number.isInteger(body.width) || !Number.isInteger(body.height)) {
        return Response.json({ detail: [{ loc: ['body', 'width'], msg: 'value is not a valid integer', type: 'type_error.integer' }] }, { status: 422 });
      }
      const job = { step: 0, steps: 4, started: Date.now(), interrupted: false };
      this.job = job;
      while ((job.step < job.steps || /\bhang\b/.test(body.prompt)) && !job.interrupted) {
        await sleep(40);
        job.step = Math.min(job.step + 1, job.steps);
      }
      this.job = null;
      const n = Number(body.batch_size ?? 1);
      if (/\bgarbage\b/.test(body.prompt)) return Response.json({ images: ['%%% not base64 %%%'], parameters: body, info: '{}' });
      const picture = (i: number) => (/\bnotapng\b/.test(body.prompt) ? Buffer.from('plain text, not a picture') : Buffer.from(pngOf(body.width, body.height, 20 * i))).toString('base64');
      const images = Array.from({ length: n }, (_, i) => picture(i));
      // The grid of a batch comes first.
      if (n > 1) images.unshift(Buffer.from(pngOf(body.width * 2, body.height)).toString('base64'));
      return Response.json({ images, parameters: { ...body, init_images: undefined }, info: JSON.stringify({ seed: body.seed, all_seeds: images.map((_, i) => body.seed + i) }) });
    };
    app.post('/sdapi/v1/txt2img', async (c) => generate('txt2img', await c.req.json()));
    app.post('/sdapi/v1/img2img', async (c) => generate('img2img', await c.req.json()));
    app.get('/sdapi/v1/progress', (c) => {
      const job = this.job;
      if (!job) return c.json({ progress: 0, eta_relative: 0, state: { job_count: 0, sampling_step: 0, sampling_steps: 0, interrupted: false }, current_image: null, textinfo: null });
      const progress = job.step / job.steps;
      return c.json({ progress, eta_relative: progress > 0 ? ((Date.now() - job.started) / 1000 / progress) * (1 - progress) : 0, state: { job_count: 1, sampling_step: job.step, sampling_steps: job.steps, interrupted: false }, current_image: null, textinfo: null });
    });
    app.post('/sdapi/v1/interrupt', (c) => {
      this.interrupted++;
      if (this.job) this.job.interrupted = true;
      return c.json({});
    });
    this.standIn = await listenStandIn(app);
  }

  last() {
    return this.calls.at(-1)!;
  }

  stop() {
    return this.standIn ? this.standIn.close() : Promise.resolve();
  }
}

const MODEL: BackendModelSettings = { id: 'webui-sd', kind: 'image', remoteModel: 'realisticVision_v51.safetensors', input: { steps: 12, sampler_name: 'DPM++ 2M', negative_prompt: '{{negative_prompt}}, watermark' } };
const request = (prompt: string, extra: Record<string, unknown> = {}) => ({ model: 'webui-sd', prompt, width: 512, height: 640, seed: 77, n: 1, ...extra });

describe('the AUTOMATIC1111 adapter against a local web-UI API server', () => {
  const webui = new FakeA1111();
  let endpoint: ReturnType<typeof endpointFor>;

  beforeAll(async () => {
    await webui.start();
    // The operator's key `user:password` becomes HTTP Basic, as --api-auth wants.
    const { headers } = endpointOf({ id: 'webui', type: 'a1111', baseUrl: webui.url, apiKey: 'painter:secret', requestTimeoutMs: 5000, pollIntervalMs: 15, maxDownloadBytes: 1 << 26, models: [MODEL] });
    endpoint = endpointFor(webui.url, { headers, pollIntervalMs: 15 });
  });
  afterAll(() => webui.stop());

  it('makes pictures with txt2img, skipping the batch grid, and reports the web UI’s progress', async () => {
    const ctx = recordingContext();
    const files = await a1111ImageEngine(endpoint, MODEL).generate(request('a lighthouse in fog', { n: 2, negativePrompt: 'blurry' }), ctx);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatchObject({ contentType: 'image/png', width: 512, height: 640 });
    const body = webui.last().body;
    expect(body).toMatchObject({
      prompt: 'a lighthouse in fog',
      negative_prompt: 'blurry, watermark',
      seed: 77,
      width: 512,
      height: 640,
      batch_size: 2,
      n_iter: 1,
      steps: 12,
      sampler_name: 'DPM++ 2M',
      override_settings: { sd_model_checkpoint: 'realisticVision_v51.safetensors' },
    });
    const middle = ctx.progress.filter((p) => p.fraction > 0 && p.fraction < 1);
    expect(middle.length).toBeGreaterThanOrEqual(1);
    expect(middle.some((p) => typeof p.etaMs === 'number')).toBe(true);
    expect(ctx.progress.at(-1)?.fraction).toBe(1);
  });

  it('transforms the uploaded picture with img2img, the strength as denoising_strength, at the picture’s size', async () => {
    const upload = pngOf(500, 333);
    const files = await a1111ImageEngine(endpoint, MODEL).edit({ ...request('as a pencil sketch'), width: 0, height: 0, image: upload, strength: 0.45 }, recordingContext());
    const body = webui.last().body;
    expect(webui.last().path).toBe('img2img');
    expect(body.denoising_strength).toBe(0.45);
    expect(Buffer.from(body.init_images[0], 'base64').equals(Buffer.from(upload))).toBe(true);
    expect([body.width, body.height]).toEqual([504, 336]);
    expect(imageSize(files[0]!.data, 'image/png')).toEqual({ width: 504, height: 336 });
  });

  it('fails without retry when the pictures are not base64, not pictures, or the request is refused', async () => {
    const engine = a1111ImageEngine(endpoint, MODEL);
    await engineFailure(engine.generate(request('garbage'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    await engineFailure(engine.generate(request('notapng'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    const refused = await engineFailure(engine.generate(request('a cat', { width: 512.5 }), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    expect(refused.message).toMatch(/HTTP 422/);
    const unauthorised = await engineFailure(a1111ImageEngine({ ...endpoint, headers: {} }, MODEL).generate(request('a cat'), recordingContext()), 'SYSTEM_ERROR', false);
    expect(unauthorised.message).toMatch(/HTTP 401: Incorrect credentials/);
  });

  it('fails transiently when the web UI is down', async () => {
    const down = a1111ImageEngine(endpointFor(`http://127.0.0.1:${await closedPort()}`), MODEL);
    await engineFailure(down.generate(request('a cat'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
  });

  it('interrupts the web UI when cancelled', async () => {
    const ctx = recordingContext();
    const before = webui.interrupted;
    const pending = a1111ImageEngine(endpoint, MODEL).generate(request('hang around'), ctx);
    await sleep(120);
    ctx.controller.abort(new Error('time limit reached'));
    await expect(pending).rejects.toThrow('time limit reached');
    expect(webui.interrupted).toBe(before + 1);
  });
});
