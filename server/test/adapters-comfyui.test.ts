import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comfyImageEngine, comfyMusicEngine, comfyVideoEngine, DEFAULT_CHECKPOINT } from '../src/engines/adapters/comfyui/index.ts';
import type { BackendModelSettings } from '../src/engines/adapters/settings.ts';
import { closedPort, endpointFor, engineFailure, FAKE_MP3, FAKE_MP4, listenStandIn, pngOf, recordingContext, type StandIn } from './support/fakeBackends.ts';

type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

interface Run {
  id: string;
  clientId: string;
  workflow: Workflow;
  state: 'pending' | 'running' | 'done' | 'gone';
  entry?: Record<string, unknown>;
}

/** Sends one unmasked WebSocket frame (server to client). */
function frame(socket: Duplex, payload: Buffer, opcode: number): void {
  const head = payload.length < 126 ? Buffer.from([0x80 | opcode, payload.length]) : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]);
  socket.write(Buffer.concat([head, payload]));
}

/**
 * A ComfyUI server: /prompt queues a workflow, which "runs" for a few steps (progress on /ws to
 * the submitting client), then appears in /history with its saved outputs, served by /view.
 * Words in the workflow steer it: `explode` (a node raises), `vanish` (lost from the queue),
 * `hang` (runs until interrupted), `garbage` (/view serves HTML), `invalid` (refused at /prompt).
 */
class FakeComfy {
  readonly runs = new Map<string, Run>();
  readonly uploads = new Map<string, Uint8Array>();
  readonly interrupts: unknown[] = [];
  readonly deletes: unknown[] = [];
  readonly sockets = new Map<string, Duplex>();
  private readonly files = new Map<string, Uint8Array>();
  private standIn: StandIn | null = null;
  private counter = 0;

  get url() {
    return this.standIn!.url;
  }

  async start() {
    const app = new Hono();
    app.post('/prompt', async (c) => {
      const body = (await c.req.json()) as { prompt?: Workflow; client_id?: string };
      const text = JSON.stringify(body.prompt ?? null);
      if (!body.prompt || typeof body.client_id !== 'string') return c.json({ error: { type: 'invalid_prompt', message: 'no prompt', details: '' }, node_errors: {} }, 400);
      if (text.includes('{{') || /\binvalid\b/.test(text)) {
        return c.json({ error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '' }, node_errors: { '3': { errors: [{ message: 'Value not in list' }] } } }, 400);
      }
      const run: Run = { id: randomUUID(), clientId: body.client_id, workflow: body.prompt, state: 'pending' };
      this.runs.set(run.id, run);
      void this.execute(run, text);
      return c.json({ prompt_id: run.id, number: ++this.counter, node_errors: {} });
    });
    app.get('/history/:id', (c) => {
      const run = this.runs.get(c.req.param('id'));
      return c.json(run?.entry ? { [run.id]: run.entry } : {});
    });
    app.get('/queue', (c) => {
      const item = (r: Run) => [1, r.id, r.workflow, { client_id: r.clientId }, ['9']];
      const all = [...this.runs.values()];
      return c.json({ queue_running: all.filter((r) => r.state === 'running').map(item), queue_pending: all.filter((r) => r.state === 'pending').map(item) });
    });
    app.get('/view', (c) => {
      if (c.req.query('type') === undefined || c.req.query('subfolder') === undefined) return c.text('missing', 400);
      const data = this.files.get(c.req.query('filename') ?? '');
      if (!data) return c.text('not found', 404);
      return new Response(data as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } });
    });
    app.post('/upload/image', async (c) => {
      const form = await c.req.formData();
      const image = form.get('image');
      if (!(image instanceof File)) return c.text('no image', 400);
      this.uploads.set(image.name, new Uint8Array(await image.arrayBuffer()));
      return c.json({ name: image.name, subfolder: 'uploads', type: form.get('type') ?? 'input' });
    });
    app.post('/interrupt', async (c) => {
      const body = await c.req.json().catch(() => ({}));
      this.interrupts.push(body);
      for (const run of this.runs.values()) if (run.state === 'running' && (!body.prompt_id || body.prompt_id === run.id)) this.finish(run, 'interrupted');
      return c.body(null, 200);
    });
    app.post('/queue', async (c) => {
      const body = (await c.req.json()) as { delete?: string[] };
      this.deletes.push(body);
      for (const id of body.delete ?? []) {
        const run = this.runs.get(id);
        if (run?.state === 'pending') run.state = 'gone';
      }
      return c.body(null, 200);
    });
    this.standIn = await listenStandIn(app);
    this.standIn.server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/ws') return socket.destroy();
      const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      const clientId = url.searchParams.get('clientId') ?? '';
      this.sockets.set(clientId, socket);
      socket.on('error', () => undefined);
      // The client's close frame (opcode 8) is answered with ours, and the connection ends.
      socket.on('data', (chunk: Buffer) => {
        if ((chunk[0]! & 0x0f) === 0x8) socket.end(Buffer.from([0x88, 0]));
      });
      socket.on('close', () => this.sockets.delete(clientId));
      this.send(clientId, { type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId } });
    });
  }

  private send(clientId: string, message: unknown) {
    const socket = this.sockets.get(clientId);
    if (socket && !socket.destroyed) frame(socket, Buffer.from(JSON.stringify(message)), 0x1);
  }

  private async execute(run: Run, text: string) {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Like a real queue, it starts a little later; by then the client's socket is normally open.
    for (let i = 0; i < 20 && !this.sockets.has(run.clientId); i++) await sleep(10);
    if (run.state !== 'pending') return;
    if (/\bvanish\b/.test(text)) {
      run.state = 'gone';
      return;
    }
    run.state = 'running';
    const data = { prompt_id: run.id };
    this.send(run.clientId, { type: 'execution_start', data: { ...data, timestamp: Date.now() } });
    this.send(run.clientId, { type: 'execution_cached', data: { ...data, nodes: [] } });
    this.send(run.clientId, { type: 'executing', data: { ...data, node: '3', display_node: '3' } });
    const steps = 4;
    for (let value = 1; value <= steps || /\bhang\b/.test(text); value++) {
      if (run.state !== 'running') return;
      this.send(run.clientId, { type: 'progress', data: { ...data, value: Math.min(value, steps), max: steps, node: '3' } });
      const socket = this.sockets.get(run.clientId);
      // A preview picture, as a binary frame (event type 1, format 2, then the bytes).
      if (socket) frame(socket, Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 2]), Buffer.from(pngOf(4, 4))]), 0x2);
      await sleep(25);
    }
    if (/\bexplode\b/.test(text)) return this.finish(run, 'error');
    this.finish(run, 'success');
  }

  private finish(run: Run, how: 'success' | 'error' | 'interrupted') {
    const data = { prompt_id: run.id };
    run.state = 'done';
    const outputs: Record<string, unknown> = {};
    if (how === 'success') {
      const w = Object.values(run.workflow);
      const batch = Number(w.find((n) => n.class_type === 'EmptyLatentImage')?.inputs.batch_size ?? w.find((n) => n.class_type === 'RepeatLatentBatch')?.inputs.amount ?? 1);
      const sized = w.find((n) => n.class_type === 'EmptyLatentImage' || n.class_type === 'ImageScale')?.inputs;
      const garbage = /\bgarbage\b/.test(JSON.stringify(run.workflow));
      const saved = (name: string, bytes: Uint8Array) => {
        this.files.set(name, garbage ? new TextEncoder().encode('<html>500 Internal Server Error</html>') : bytes);
        return { filename: name, subfolder: '', type: 'output' };
      };
      if (w.some((n) => n.class_type === 'SaveImage')) {
        outputs['9'] = { images: Array.from({ length: batch }, (_, i) => saved(`atelier_${run.id}_${i}.png`, pngOf(Number(sized?.width ?? 8), Number(sized?.height ?? 8), 30 * i))) };
      }
      if (w.some((n) => n.class_type === 'VHS_VideoCombine')) outputs['20'] = { gifs: [saved(`clip_${run.id}.mp4`, FAKE_MP4)] };
      if (w.some((n) => n.class_type === 'SaveAudioMP3')) outputs['30'] = { audio: [saved(`track_${run.id}.mp3`, FAKE_MP3)] };
      this.files.set(`preview_${run.id}.png`, pngOf(2, 2));
      outputs['99'] = { images: [{ filename: `preview_${run.id}.png`, subfolder: '', type: 'temp' }] };
      this.send(run.clientId, { type: 'executing', data: { ...data, node: null } });
      this.send(run.clientId, { type: 'execution_success', data: { ...data, timestamp: Date.now() } });
    }
    const messages: unknown[] = [['execution_start', { ...data, timestamp: 1 }]];
    if (how === 'error') {
      messages.push(['execution_error', { ...data, node_id: '3', node_type: 'KSampler', exception_message: 'CUDA out of memory', exception_type: 'torch.OutOfMemoryError' }]);
      this.send(run.clientId, { type: 'execution_error', data: { ...data, node_id: '3', exception_message: 'CUDA out of memory' } });
    }
    if (how === 'interrupted') messages.push(['execution_interrupted', { ...data, node_id: '3', node_type: 'KSampler' }]);
    run.entry = { prompt: [1, run.id, run.workflow, {}, ['9']], outputs, status: { status_str: how === 'success' ? 'success' : 'error', completed: how === 'success', messages } };
  }

  stop() {
    for (const s of this.sockets.values()) s.destroy();
    return this.standIn ? this.standIn.close() : Promise.resolve();
  }
}

const IMAGE: BackendModelSettings = { id: 'comfy-sd15', kind: 'image' };
const request = (prompt: string, extra: Record<string, unknown> = {}) => ({ model: 'comfy-sd15', prompt, negativePrompt: 'lowres', width: 512, height: 384, seed: 1234, n: 1, ...extra });

describe('the ComfyUI adapter against a local ComfyUI-protocol server', () => {
  const comfy = new FakeComfy();
  let endpoint: ReturnType<typeof endpointFor>;

  beforeAll(async () => {
    await comfy.start();
    endpoint = endpointFor(comfy.url, { pollIntervalMs: 30 });
  });
  afterAll(() => comfy.stop());

  it('queues the default text-to-image workflow with the request filled in, follows it, and fetches the saved pictures', async () => {
    const ctx = recordingContext();
    const files = await comfyImageEngine(endpoint, IMAGE).generate(request('a red fox in snow', { n: 2 }), ctx);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatchObject({ contentType: 'image/png', extension: 'png', width: 512, height: 384 });
    const run = [...comfy.runs.values()].at(-1)!;
    const w = run.workflow;
    expect(w['4']!.inputs.ckpt_name).toBe(DEFAULT_CHECKPOINT);
    expect(w['5']!.inputs).toEqual({ width: 512, height: 384, batch_size: 2 });
    expect(w['6']!.inputs.text).toBe('a red fox in snow');
    expect(w['7']!.inputs.text).toBe('lowres');
    expect(w['3']!.inputs.seed).toBe(1234);
    // Progress came from the websocket's step messages, before the end.
    const fractions = ctx.progress.map((p) => p.fraction);
    expect(fractions.filter((f) => f > 0 && f < 1).length).toBeGreaterThanOrEqual(2);
    expect(fractions.at(-1)).toBe(1);
    // The socket is closed once the run is over.
    await new Promise((r) => setTimeout(r, 50));
    expect(comfy.sockets.has(run.clientId)).toBe(false);
  });

  it('uploads the picture and runs the default image-to-image workflow with the strength as denoise', async () => {
    const upload = pngOf(300, 200);
    const files = await comfyImageEngine(endpoint, { ...IMAGE, remoteModel: 'dreamshaper_8.safetensors' }).edit({ ...request('as an oil painting'), width: 0, height: 0, image: upload, strength: 0.35 }, recordingContext());
    expect(files).toHaveLength(1);
    const [name, bytes] = [...comfy.uploads.entries()].at(-1)!;
    expect(Buffer.from(bytes).equals(Buffer.from(upload))).toBe(true);
    const w = [...comfy.runs.values()].at(-1)!.workflow;
    expect(w['10']!.inputs.image).toBe(`uploads/${name}`);
    expect(w['3']!.inputs.denoise).toBe(0.35);
    expect(w['4']!.inputs.ckpt_name).toBe('dreamshaper_8.safetensors');
    // The picture's own size, in blocks of 8.
    expect(w['13']!.inputs).toMatchObject({ width: 304, height: 200 });
    expect(files[0]).toMatchObject({ width: 304, height: 200 });
  });

  it('runs an operator’s video and music workflows, typed placeholders included', async () => {
    const videoWorkflow = {
      '1': { class_type: 'TextPrompt', inputs: { text: 'cinematic: {{prompt}}', seed: '{{seed}}' } },
      '2': { class_type: 'EmptyVideoLatent', inputs: { width: '{{width}}', height: '{{height}}', length: '{{frames}}' } },
      '20': { class_type: 'VHS_VideoCombine', inputs: { frame_rate: '{{fps}}', format: 'video/h264-mp4' } },
    };
    const video = await comfyVideoEngine(endpoint, { id: 'comfy-video', kind: 'video', workflow: videoWorkflow }).generate(
      { model: 'comfy-video', prompt: 'waves', style: 'abstract', durationSec: 2, width: 640, height: 360, fps: 12, seed: 5 },
      recordingContext(),
    );
    expect(video).toMatchObject({ contentType: 'video/mp4', width: 640, height: 360, durationMs: 2000 });
    const w = [...comfy.runs.values()].at(-1)!.workflow;
    expect(w['1']!.inputs).toEqual({ text: 'cinematic: waves. Style: abstract.', seed: 5 });
    expect(w['2']!.inputs).toEqual({ width: 640, height: 360, length: 24 });

    const musicWorkflow = { '1': { class_type: 'TextEncodeAudio', inputs: { text: '{{prompt}}', seconds: '{{duration}}' } }, '30': { class_type: 'SaveAudioMP3', inputs: {} } };
    const track = await comfyMusicEngine(endpoint, { id: 'comfy-music', kind: 'music', workflow: musicWorkflow }).generate({ model: 'comfy-music', prompt: 'lofi', durationSec: 12, seed: 1 }, recordingContext());
    expect(track).toMatchObject({ contentType: 'audio/mpeg', extension: 'mp3', durationMs: 12_000 });
  });

  it('fails with IMAGE_GENERATE_FAILED, naming the node, when the workflow raises; and when ComfyUI refuses it', async () => {
    const failed = await engineFailure(comfyImageEngine(endpoint, IMAGE).generate(request('explode'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    expect(failed.message).toMatch(/KSampler: CUDA out of memory/);
    const refused = await engineFailure(comfyImageEngine(endpoint, IMAGE).generate(request('invalid'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    expect(refused.message).toMatch(/HTTP 400: Prompt outputs failed validation/);
  });

  it('fails without retry when /view serves something that is not a picture', async () => {
    const err = await engineFailure(comfyImageEngine(endpoint, IMAGE).generate(request('garbage'), recordingContext()), 'IMAGE_GENERATE_FAILED', false);
    expect(err.message).toMatch(/not a picture/);
  });

  it('fails transiently when the prompt is lost (neither queued nor finished) or ComfyUI is down', async () => {
    await engineFailure(comfyImageEngine(endpoint, IMAGE).generate(request('vanish'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
    const down = comfyImageEngine(endpointFor(`http://127.0.0.1:${await closedPort()}`), IMAGE);
    await engineFailure(down.generate(request('a fox'), recordingContext()), 'ENGINE_UNAVAILABLE', true);
  });

  it('interrupts its prompt and takes it off the queue when cancelled', async () => {
    const ctx = recordingContext();
    const pending = comfyImageEngine(endpoint, IMAGE).generate(request('hang on'), ctx);
    const running = async () => {
      for (let i = 0; i < 200; i++) {
        const run = [...comfy.runs.values()].find((r) => r.state === 'running' && JSON.stringify(r.workflow).includes('hang on'));
        if (run) return run;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('the workflow never started');
    };
    const run = await running();
    ctx.controller.abort(new Error('cancelled by the owner'));
    await expect(pending).rejects.toThrow('cancelled by the owner');
    expect(comfy.interrupts).toContainEqual({ prompt_id: run.id });
    expect(comfy.deletes).toContainEqual({ delete: [run.id] });
    expect(run.entry?.status).toMatchObject({ status_str: 'error' });
  });
});
