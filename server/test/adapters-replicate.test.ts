import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf } from '../src/engines/adapters/index.ts';
import { replicateImageEngine, replicateMusicEngine, replicateVideoEngine } from '../src/engines/adapters/replicate.ts';
import type { BackendModelSettings } from '../src/engines/adapters/settings.ts';
import { closedPort, endpointFor, engineFailure, FAKE_MP3, FAKE_MP4, listenStandIn, pngOf, recordingContext, type StandIn } from './support/fakeBackends.ts';

const TOKEN = 'r8_test_token';

interface Prediction {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, any>;
  status: string;
  output: unknown;
  error: string | null;
  logs: string;
  polls: number;
}

/**
 * Replicate's prediction API. Models decide their output: `acme/pictures` makes `num_outputs`
 * PNGs, `acme/clips` one MP4, `acme/tunes` one MP3; output files are served from another origin
 * (as replicate.delivery is). Prompt words: `fail` (the prediction fails), `hang` (processes until
 * cancelled), `wrongkind` (a PNG whatever the model), `text` (a text file).
 */
class FakeReplicate {
  readonly predictions = new Map<string, Prediction>();
  readonly creates: { path: string; auth: string | undefined; prefer: string | undefined; body: Record<string, any> }[] = [];
  readonly cancels: string[] = [];
  readonly polls: string[] = [];
  readonly fileRequests: { auth: string | undefined }[] = [];
  private api: StandIn | null = null;
  private delivery: StandIn | null = null;
  private readonly files = new Map<string, { type: string; data: Uint8Array }>();
  private counter = 0;

  get url() {
    return `${this.api!.url}/v1`;
  }

  async start() {
    const files = new Hono();
    files.get('/:name', (c) => {
      this.fileRequests.push({ auth: c.req.header('authorization') });
      const file = this.files.get(c.req.param('name'));
      return file ? new Response(file.data as Uint8Array<ArrayBuffer>, { headers: { 'content-type': file.type } }) : c.text('gone', 404);
    });
    this.delivery = await listenStandIn(files);

    const app = new Hono();
    app.use('/v1/*', async (c, next) => {
      if (c.req.header('authorization') !== `Bearer ${TOKEN}`) return c.json({ title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }, 401);
      await next();
    });
    const create = async (c: any, model: string, version: string | null) => {
      const body = await c.req.json();
      this.creates.push({ path: c.req.path, auth: c.req.header('authorization'), prefer: c.req.header('prefer'), body });
      if (!body.input || typeof body.input.prompt !== 'string') return c.json({ title: 'Input validation failed', detail: '- input.prompt: Required', status: 422 }, 422);
      const p: Prediction = { id: `pred${++this.counter}`, model, version, input: body.input, status: 'starting', output: null, error: null, logs: '', polls: 0 };
      this.predictions.set(p.id, p);
      // `Prefer: wait` holds the request until the model is done (quick models only, here).
      if (c.req.header('prefer')?.startsWith('wait') && !/\bhang\b/.test(body.input.prompt)) while (p.status !== 'succeeded' && p.status !== 'failed') this.advance(p);
      return c.json(this.view(p), 201);
    };
    app.post('/v1/models/:owner/:name/predictions', (c) => create(c, `${c.req.param('owner')}/${c.req.param('name')}`, null));
    app.post('/v1/deployments/:owner/:name/predictions', (c) => create(c, `${c.req.param('owner')}/${c.req.param('name')}`, null));
    app.post('/v1/predictions', async (c) => {
      const version = ((await c.req.raw.clone().json()) as { version?: string }).version;
      if (!version) return c.json({ title: 'Invalid version', detail: 'version is required', status: 422 }, 422);
      return create(c, version === 'f00d' ? 'acme/pictures' : 'acme/unknown', version);
    });
    app.get('/v1/predictions/:id', (c) => {
      const p = this.predictions.get(c.req.param('id'));
      if (!p) return c.json({ title: 'Not found', status: 404 }, 404);
      this.polls.push(p.id);
      this.advance(p);
      return c.json(this.view(p));
    });
    app.post('/v1/predictions/:id/cancel', (c) => {
      const p = this.predictions.get(c.req.param('id'));
      if (!p) return c.json({ title: 'Not found', status: 404 }, 404);
      this.cancels.push(p.id);
      if (p.status === 'starting' || p.status === 'processing') p.status = 'canceled';
      return c.json(this.view(p));
    });
    this.api = await listenStandIn(app);
  }

  private advance(p: Prediction) {
    if (p.status !== 'starting' && p.status !== 'processing') return;
    p.polls++;
    p.status = 'processing';
    const pct = Math.min(100, p.polls * 25);
    p.logs += `Using seed: ${p.input.seed}\n${String(pct).padStart(3)}%|${'█'.repeat(pct / 10)}${' '.repeat(10 - pct / 10)}| ${pct / 5}/20 [00:0${p.polls}<00:03]\n`;
    if (/\bhang\b/.test(p.input.prompt) || p.polls < 4) return;
    if (/\bfail\b/.test(p.input.prompt)) {
      p.status = 'failed';
      p.error = 'CUDA out of memory. Tried to allocate 2.00 GiB';
      return;
    }
    p.status = 'succeeded';
    const file = (name: string, type: string, data: Uint8Array) => {
      this.files.set(name, { type, data });
      return `${this.delivery!.url}/${name}`;
    };
    if (/\bwrongkind\b/.test(p.input.prompt)) p.output = file(`${p.id}.png`, 'image/png', pngOf(8, 8));
    else if (/\btext\b/.test(p.input.prompt)) p.output = file(`${p.id}.txt`, 'text/plain', new TextEncoder().encode('hello, I am not media at all'));
    else if (p.model === 'acme/pictures') p.output = Array.from({ length: Number(p.input.num_outputs ?? 1) }, (_, i) => file(`${p.id}-${i}.png`, 'image/png', pngOf(Number(p.input.width), Number(p.input.height), 50 * i)));
    else if (p.model === 'acme/clips') p.output = file(`${p.id}.mp4`, 'video/mp4', FAKE_MP4);
    else if (p.model === 'acme/tunes') p.output = { audio_out: file(`${p.id}.mp3`, 'audio/mpeg', FAKE_MP3) };
  }

  private view(p: Prediction) {
    const get = `${this.url}/predictions/${p.id}`;
    return { id: p.id, model: p.model, version: p.version ?? 'latest', input: p.input, logs: p.logs, output: p.output, error: p.error, status: p.status, created_at: new Date().toISOString(), urls: { get, cancel: `${get}/cancel`, stream: `${get}/stream` } };
  }

  stop() {
    return Promise.all([this.api?.close(), this.delivery?.close()]);
  }
}

const PICTURES: BackendModelSettings = { id: 'rep-pictures', kind: 'image', remoteModel: 'acme/pictures', editInput: { prompt: '{{prompt}}', image: '{{image}}', prompt_strength: '{{strength}}', num_outputs: '{{n}}', width: '{{width}}', height: '{{height}}' } };
const image = (prompt: string, extra: Record<string, unknown> = {}) => ({ model: 'rep-pictures', prompt, width: 768, height: 512, seed: 42, n: 1, ...extra });

describe('the Replicate adapter against a local prediction-API server', () => {
  const replicate = new FakeReplicate();
  let endpoint: ReturnType<typeof endpointFor>;

  beforeAll(async () => {
    await replicate.start();
    const { headers } = endpointOf({ id: 'rep', type: 'replicate', baseUrl: replicate.url, apiKey: TOKEN, requestTimeoutMs: 5000, pollIntervalMs: 15, maxDownloadBytes: 1 << 26, models: [PICTURES] });
    endpoint = endpointFor(replicate.url, { headers, pollIntervalMs: 15 });
  });
  afterAll(() => replicate.stop());

  it('runs an official model’s prediction, polls it to succeeded with progress from its logs, and downloads the pictures', async () => {
    const ctx = recordingContext();
    const files = await replicateImageEngine(endpoint, PICTURES).generate(image('a koi pond', { n: 3, negativePrompt: '' }), ctx);
    expect(files).toHaveLength(3);
    for (const f of files) expect(f).toMatchObject({ contentType: 'image/png', width: 768, height: 512 });
    const created = replicate.creates.at(-1)!;
    expect(created.path).toBe('/v1/models/acme/pictures/predictions');
    expect(created.auth).toBe(`Bearer ${TOKEN}`);
    expect(created.prefer).toBeUndefined();
    // The default input; an empty negative prompt is left out.
    expect(created.body).toEqual({ input: { prompt: 'a koi pond', seed: 42, width: 768, height: 512, num_outputs: 3 } });
    const middle = ctx.progress.map((p) => p.fraction).filter((f) => f > 0 && f < 1);
    expect(middle.length).toBeGreaterThanOrEqual(2);
    expect(ctx.progress.at(-1)?.fraction).toBe(1);
    // The token goes to Replicate only, never to the file host.
    expect(replicate.fileRequests.at(-1)!.auth).toBeUndefined();
  });

  it('creates by version with Prefer: wait, and edits a picture sent as a data URL', async () => {
    const byVersion: BackendModelSettings = { ...PICTURES, remoteModel: 'acme/pictures:f00d', wait: 30 };
    const files = await replicateImageEngine(endpoint, byVersion).edit({ ...image('as a mosaic'), width: 0, height: 0, image: pngOf(100, 60), strength: 0.7 }, recordingContext());
    expect(files).toHaveLength(1);
    const created = replicate.creates.at(-1)!;
    expect(created.path).toBe('/v1/predictions');
    expect(created.prefer).toBe('wait=30');
    expect(created.body.version).toBe('f00d');
    expect(created.body.input).toMatchObject({ prompt: 'as a mosaic', prompt_strength: 0.7, num_outputs: 1, width: 104, height: 64 });
    expect(created.body.input.image).toMatch(/^data:image\/png;base64,iVBOR/);
    // Answered finished: no poll was needed.
    expect(replicate.polls).not.toContain([...replicate.predictions.keys()].at(-1));
  });

  it('makes videos and music, the output’s content deciding, through deployments and official models', async () => {
    const clip = await replicateVideoEngine(endpoint, { id: 'rep-clip', kind: 'video', deployment: 'acme/clips' }).generate(
      { model: 'rep-clip', prompt: 'a paper boat', style: 'animation', durationSec: 5, width: 848, height: 480, fps: 16, seed: 8 },
      recordingContext(),
    );
    expect(clip).toMatchObject({ contentType: 'video/mp4', width: 848, height: 480, durationMs: 5000 });
    expect(replicate.creates.at(-1)!.path).toBe('/v1/deployments/acme/clips/predictions');
    expect(replicate.creates.at(-1)!.body.input).toEqual({ prompt: 'a paper boat. Style: animation.', seed: 8, duration: 5, fps: 16, width: 848, height: 480 });

    const tune = await replicateMusicEngine(endpoint, { id: 'rep-tune', kind: 'music', remoteModel: 'acme/tunes', input: { prompt: '{{prompt}}', duration: '{{duration}}', model_version: 'stereo-large' } }).generate(
      { model: 'rep-tune', prompt: 'sea shanty', durationSec: 15, seed: 2 },
      recordingContext(),
    );
    expect(tune).toMatchObject({ contentType: 'audio/mpeg', extension: 'mp3', durationMs: 15_000 });
    expect(replicate.creates.at(-1)!.body.input).toEqual({ prompt: 'sea shanty', duration: 15, model_version: 'stereo-large' });
  });

  it('fails without retry with the kind’s code: a failed prediction, output of the wrong kind or not media, a refused input', async () => {
    const failed = await engineFailure(replicateImageEngine(endpoint, PICTURES).generate(image('fail now'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    expect(failed.message).toMatch(/CUDA out of memory/);
    const tunes: BackendModelSettings = { id: 'rep-tune', kind: 'music', remoteModel: 'acme/tunes' };
    const wrong = await engineFailure(replicateMusicEngine(endpoint, tunes).generate({ model: 'rep-tune', prompt: 'wrongkind', durationSec: 5, seed: 1 }, recordingContext()), 'MUSIC_GENERATE_FAILED', false);
    expect(wrong.message).toMatch(/image\/png but no audio/);
    await engineFailure(replicateMusicEngine(endpoint, tunes).generate({ model: 'rep-tune', prompt: 'text', durationSec: 5, seed: 1 }, recordingContext()), 'MUSIC_GENERATE_FAILED', false);
    const refused = await engineFailure(
      replicateVideoEngine(endpoint, { id: 'rep-clip', kind: 'video', remoteModel: 'acme/clips', input: { text: '{{prompt}}' } }).generate(
        { model: 'rep-clip', prompt: 'x', style: 'abstract', durationSec: 2, width: 640, height: 360, fps: 8, seed: 1 },
        recordingContext(),
      ),
      'VIDEO_GENERATE_FAILED',
      false,
    );
    expect(refused.message).toMatch(/HTTP 422: - input.prompt: Required/);
    await engineFailure(replicateImageEngine({ ...endpoint, headers: { authorization: 'Bearer nope' } }, PICTURES).generate(image('a cat'), recordingContext()), 'SYSTEM_ERROR', false);
  });

  it('fails transiently when Replicate is unreachable', async () => {
    const down = replicateImageEngine(endpointFor(`http://127.0.0.1:${await closedPort()}/v1`), PICTURES);
    await engineFailure(down.generate(image('a cat'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
  });

  it('cancels the prediction when the task is cancelled', async () => {
    const ctx = recordingContext();
    const pending = replicateImageEngine(endpoint, PICTURES).generate(image('hang in there'), ctx);
    let id = '';
    for (let i = 0; i < 200 && !id; i++) {
      id = [...replicate.predictions.values()].find((p) => p.input.prompt === 'hang in there' && p.polls > 0)?.id ?? '';
      await new Promise((r) => setTimeout(r, 10));
    }
    ctx.controller.abort(new Error('cancelled by the owner'));
    await expect(pending).rejects.toThrow('cancelled by the owner');
    expect(replicate.cancels).toContain(id);
    expect(replicate.predictions.get(id)!.status).toBe('canceled');
  });
});
