/**
 * ComfyUI: a workflow (API format, with placeholders) is queued with POST /prompt, followed to its
 * end by polling GET /history/{prompt_id} (and, when the socket opens, the /ws progress messages),
 * and its saved outputs are fetched from GET /view. Pictures for editing go up through
 * POST /upload/image first. A cancelled task takes its prompt off the queue, or interrupts it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationContext, ImageEngine, MusicEngine, OutputFile, VideoEngine } from '../../types.ts';
import { BackendHttp, preview, type BackendEndpoint } from '../backendHttp.ts';
import { outputFileOf, sniffMedia, type MediaKind } from '../media.ts';
import { fillTemplate } from '../placeholders.ts';
import { ProgressReporter } from '../progress.ts';
import { imageValues, musicValues, pictureSize, videoValues } from '../requests.ts';
import type { BackendModelSettings } from '../settings.ts';

/** The checkpoint the default workflows load unless the model names another (`remoteModel`). */
export const DEFAULT_CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';

const readTemplate = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, name), 'utf8')) as Record<string, unknown>;
export const DEFAULT_TXT2IMG = readTemplate('txt2img.json');
export const DEFAULT_IMG2IMG = readTemplate('img2img.json');

/** The image-to-image workflow: the operator's, or the default one when the text-to-image one is the default too. */
export function comfyEditWorkflow(model: BackendModelSettings): Record<string, unknown> | null {
  return model.editWorkflow ?? (model.workflow ? null : DEFAULT_IMG2IMG);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** At most this many saved files are fetched from one run. */
const MAX_OUTPUTS = 16;

export function comfyImageEngine(endpoint: BackendEndpoint, model: BackendModelSettings): ImageEngine {
  const http = new BackendHttp(endpoint, 'IMAGE_GENERATE_FAILED');
  const remote = model.remoteModel ?? DEFAULT_CHECKPOINT;
  const editWorkflow = comfyEditWorkflow(model);
  return {
    kind: 'image',
    async generate(req, ctx) {
      const workflow = fillTemplate(model.workflow ?? DEFAULT_TXT2IMG, imageValues(req, remote));
      return take(http, await runWorkflow(http, workflow, ctx, 'image'), req.n);
    },
    async edit(req, ctx) {
      if (!editWorkflow) throw http.bad('this model has no image-to-image workflow');
      const progress = new ProgressReporter(ctx);
      const image = await uploadPicture(http, req.image, ctx.signal);
      const workflow = fillTemplate(editWorkflow, { ...imageValues(req, remote, pictureSize(req, 8)), image });
      return take(http, await runWorkflow(http, workflow, ctx, 'image', progress), req.n);
    },
  };
}

export function comfyVideoEngine(endpoint: BackendEndpoint, model: BackendModelSettings): VideoEngine {
  const http = new BackendHttp(endpoint, 'VIDEO_GENERATE_FAILED');
  const remote = model.remoteModel ?? DEFAULT_CHECKPOINT;
  return {
    kind: 'video',
    async generate(req, ctx) {
      const [file] = await runWorkflow(http, fillTemplate(model.workflow!, videoValues(req, remote)), ctx, 'video');
      return { ...file!, width: req.width, height: req.height, durationMs: Math.round(req.durationSec * 1000) };
    },
  };
}

export function comfyMusicEngine(endpoint: BackendEndpoint, model: BackendModelSettings): MusicEngine {
  const http = new BackendHttp(endpoint, 'MUSIC_GENERATE_FAILED');
  const remote = model.remoteModel ?? DEFAULT_CHECKPOINT;
  return {
    kind: 'music',
    async generate(req, ctx) {
      const [file] = await runWorkflow(http, fillTemplate(model.workflow!, musicValues(req, remote)), ctx, 'audio');
      return { ...file!, durationMs: Math.round(req.durationSec * 1000) };
    },
  };
}

function take(http: BackendHttp, files: OutputFile[], n: number): OutputFile[] {
  if (files.length < n) throw http.bad(`asked for ${n} pictures, the workflow saved ${files.length}`);
  return files.slice(0, n);
}

async function uploadPicture(http: BackendHttp, data: Uint8Array, signal: AbortSignal): Promise<string> {
  const type = sniffMedia(data);
  const form = new FormData();
  form.set('image', new Blob([data as Uint8Array<ArrayBuffer>], { type: type?.contentType ?? 'image/png' }), `atelier-${randomUUID()}.${type?.extension ?? 'png'}`);
  form.set('type', 'input');
  form.set('overwrite', 'true');
  const answer = await http.json('/upload/image', signal, { form });
  if (!isObject(answer) || typeof answer.name !== 'string' || !answer.name) throw http.bad('did not say under which name it keeps the uploaded picture');
  return typeof answer.subfolder === 'string' && answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name;
}

/** Queues the workflow, follows it to its end, and fetches the saved files of the expected kind. */
async function runWorkflow(http: BackendHttp, workflow: Json, ctx: GenerationContext, expected: MediaKind, progress = new ProgressReporter(ctx)): Promise<OutputFile[]> {
  const clientId = randomUUID();
  const socket = followSocket(http, clientId, (fraction) => progress.report(fraction * 0.9));
  try {
    const queued = await http.json('/prompt', ctx.signal, { json: { prompt: workflow, client_id: clientId } });
    if (!isObject(queued) || typeof queued.prompt_id !== 'string' || !queued.prompt_id) throw http.bad('queued the workflow without a prompt_id');
    if (isObject(queued.node_errors) && Object.keys(queued.node_errors).length > 0) throw http.bad(`refused the workflow (${preview(JSON.stringify(queued.node_errors))})`);
    const promptId = queued.prompt_id;
    socket.follow(promptId);
    let entry: Json;
    try {
      entry = await untilFinished(http, promptId, ctx.signal, socket.finished);
    } catch (err) {
      if (ctx.signal.aborted) await cancelPrompt(http, promptId);
      throw err;
    }
    const files = await fetchOutputs(http, entry, expected, ctx.signal);
    progress.done();
    return files;
  } finally {
    socket.close();
  }
}

async function untilFinished(http: BackendHttp, promptId: string, signal: AbortSignal, finished: Promise<void>): Promise<Json> {
  let missing = 0;
  for (;;) {
    const history = await http.json(`/history/${encodeURIComponent(promptId)}`, signal);
    if (!isObject(history)) throw http.bad('answered /history with something that is not an object');
    const entry = history[promptId];
    if (isObject(entry)) {
      const status = isObject(entry.status) ? entry.status : null;
      if (status?.status_str === 'error') throw http.bad(`the workflow failed: ${executionError(status)}`);
      if (status === null || status.completed === true || status.status_str === 'success') return entry;
    } else {
      // Not finished: it should still be queued or running. A prompt in neither was lost (a restart).
      const queue = await http.json('/queue', signal);
      const listed = isObject(queue) && [queue.queue_running, queue.queue_pending].some((l) => Array.isArray(l) && l.some((item) => Array.isArray(item) && item[1] === promptId));
      missing = listed ? 0 : missing + 1;
      if (missing >= 2) throw http.down('lost the workflow: it is neither queued nor finished');
    }
    await http.pause(signal, finished);
  }
}

function executionError(status: Json): string {
  const messages = Array.isArray(status.messages) ? status.messages : [];
  for (const m of messages) {
    if (!Array.isArray(m) || !isObject(m[1])) continue;
    if (m[0] === 'execution_error') return `${String(m[1].node_type ?? 'a node')}: ${String(m[1].exception_message ?? 'error')}`.trim();
    if (m[0] === 'execution_interrupted') return 'interrupted at the backend';
  }
  return 'no reason given';
}

async function fetchOutputs(http: BackendHttp, entry: Json, expected: MediaKind, signal: AbortSignal): Promise<OutputFile[]> {
  const outputs = isObject(entry.outputs) ? entry.outputs : {};
  const saved: { filename: string; subfolder: string; type: string }[] = [];
  for (const node of Object.values(outputs)) {
    if (!isObject(node)) continue;
    for (const list of Object.values(node)) {
      if (!Array.isArray(list)) continue;
      for (const f of list) {
        if (isObject(f) && typeof f.filename === 'string') saved.push({ filename: f.filename, subfolder: typeof f.subfolder === 'string' ? f.subfolder : '', type: typeof f.type === 'string' ? f.type : 'output' });
      }
    }
  }
  // Previews are `temp` files; the saved results are `output`.
  const results = saved.some((f) => f.type === 'output') ? saved.filter((f) => f.type === 'output') : saved;
  if (results.length === 0) throw http.bad('finished the workflow without saving anything (is there a Save node?)');
  const files: OutputFile[] = [];
  let other = '';
  for (const f of results.slice(0, MAX_OUTPUTS)) {
    const query = new URLSearchParams({ filename: f.filename, subfolder: f.subfolder, type: f.type });
    const answer = await http.send(`/view?${query}`, signal);
    const sniffed = sniffMedia(answer.body);
    if (sniffed && sniffed.kind !== expected) {
      other ||= sniffed.contentType;
      continue;
    }
    files.push(outputFileOf(http, answer.body, expected, answer.contentType));
  }
  if (files.length === 0) throw http.bad(`saved ${other || 'files'} but no ${expected}`);
  return files;
}

/** Best effort: a queued prompt is deleted, a running one interrupted. */
async function cancelPrompt(http: BackendHttp, promptId: string): Promise<void> {
  const signal = AbortSignal.timeout(5000);
  await Promise.allSettled([
    http.send('/queue', signal, { json: { delete: [promptId] } }),
    http.send('/interrupt', signal, { json: { prompt_id: promptId } }),
  ]);
}

/**
 * Progress from ComfyUI's websocket (`progress` messages: value of max steps of the running node),
 * and an early word that the prompt ended, so the next poll comes at once. If the socket does not
 * open, polling alone does the work.
 */
function followSocket(http: BackendHttp, clientId: string, onProgress: (fraction: number) => void) {
  let promptId: string | null = null;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let socket: WebSocket | null = null;
  try {
    const url = new URL(http.url(`/ws?clientId=${clientId}`));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url);
    socket.onerror = () => undefined;
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return; // binary frames are preview pictures
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isObject(message) || !isObject(message.data)) return;
      const data = message.data;
      if (promptId && typeof data.prompt_id === 'string' && data.prompt_id !== promptId) return;
      if (message.type === 'progress' && typeof data.value === 'number' && typeof data.max === 'number' && data.max > 0) onProgress(data.value / data.max);
      else if (message.type === 'executing' && data.node === null && data.prompt_id !== undefined) finish();
      else if (message.type === 'execution_success' || message.type === 'execution_error' || message.type === 'execution_interrupted') finish();
    };
  } catch {
    socket = null;
  }
  return {
    finished,
    follow(id: string) {
      promptId = id;
    },
    close() {
      try {
        socket?.close();
      } catch {
        // Already closed.
      }
    },
  };
}
