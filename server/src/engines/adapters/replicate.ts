/**
 * Replicate predictions: created with POST /v1/predictions (a version), /v1/models/{owner}/{name}/predictions
 * (an official model) or /v1/deployments/{owner}/{name}/predictions, optionally held open with
 * `Prefer: wait`, then polled at GET /v1/predictions/{id} until succeeded, failed or canceled. The
 * output URLs are downloaded; what they hold (picture, video, audio) must match the model's kind.
 * A cancelled task cancels its prediction (POST /v1/predictions/{id}/cancel).
 */
import type { GenerationContext, ImageEngine, MusicEngine, OutputFile, VideoEngine } from '../types.ts';
import { BackendHttp, preview, type BackendEndpoint } from './backendHttp.ts';
import { outputFileOf, sniffMedia, type MediaKind } from './media.ts';
import { fillTemplate, withoutEmpty, type TemplateValues } from './placeholders.ts';
import { ProgressReporter } from './progress.ts';
import { imageValues, musicValues, pictureSize, videoValues } from './requests.ts';
import type { BackendModelSettings } from './settings.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Inputs most Replicate models of each kind take; an operator's `input` replaces them. */
export const DEFAULT_INPUT = {
  image: { prompt: '{{prompt}}', negative_prompt: '{{negative_prompt}}', seed: '{{seed}}', width: '{{width}}', height: '{{height}}', num_outputs: '{{n}}' },
  video: { prompt: '{{prompt}}', seed: '{{seed}}', duration: '{{duration}}', fps: '{{fps}}', width: '{{width}}', height: '{{height}}' },
  music: { prompt: '{{prompt}}', seed: '{{seed}}', duration: '{{duration}}', output_format: 'mp3' },
} as const;

const FINAL = ['succeeded', 'failed', 'canceled', 'aborted'];
const KNOWN = ['starting', 'processing', ...FINAL];

export function replicateImageEngine(endpoint: BackendEndpoint, model: BackendModelSettings): ImageEngine {
  const http = new BackendHttp(endpoint, 'IMAGE_GENERATE_FAILED');
  const remote = model.remoteModel ?? model.id;
  const take = (files: OutputFile[], n: number) => {
    if (files.length < n) throw http.bad(`asked for ${n} pictures, the prediction made ${files.length}`);
    return files.slice(0, n);
  };
  return {
    kind: 'image',
    async generate(req, ctx) {
      return take(await predict(http, model, fillTemplate(model.input ?? DEFAULT_INPUT.image, imageValues(req, remote)), 'image', ctx), req.n);
    },
    async edit(req, ctx) {
      if (!model.editInput) throw http.bad('this model has no image-to-image input (editInput)');
      const type = sniffMedia(req.image)?.contentType ?? 'image/png';
      const values: TemplateValues = { ...imageValues(req, remote, pictureSize(req, 8)), image: `data:${type};base64,${Buffer.from(req.image).toString('base64')}` };
      return take(await predict(http, model, fillTemplate(model.editInput, values), 'image', ctx), req.n);
    },
  };
}

export function replicateVideoEngine(endpoint: BackendEndpoint, model: BackendModelSettings): VideoEngine {
  const http = new BackendHttp(endpoint, 'VIDEO_GENERATE_FAILED');
  const remote = model.remoteModel ?? model.id;
  return {
    kind: 'video',
    async generate(req, ctx) {
      const [file] = await predict(http, model, fillTemplate(model.input ?? DEFAULT_INPUT.video, videoValues(req, remote)), 'video', ctx);
      return { ...file!, width: req.width, height: req.height, durationMs: Math.round(req.durationSec * 1000) };
    },
  };
}

export function replicateMusicEngine(endpoint: BackendEndpoint, model: BackendModelSettings): MusicEngine {
  const http = new BackendHttp(endpoint, 'MUSIC_GENERATE_FAILED');
  const remote = model.remoteModel ?? model.id;
  return {
    kind: 'music',
    async generate(req, ctx) {
      const [file] = await predict(http, model, fillTemplate(model.input ?? DEFAULT_INPUT.music, musicValues(req, remote)), 'audio', ctx);
      return { ...file!, durationMs: Math.round(req.durationSec * 1000) };
    },
  };
}

/** Where a prediction of this model is created, and the body's model part. */
function target(model: BackendModelSettings): { path: string; body: Json } {
  if (model.deployment) return { path: `/deployments/${model.deployment}/predictions`, body: {} };
  if (model.version) return { path: '/predictions', body: { version: model.version } };
  const [name, version] = model.remoteModel!.split(':');
  return version ? { path: '/predictions', body: { version } } : { path: `/models/${name}/predictions`, body: {} };
}

interface Prediction {
  id: string;
  status: string;
  output: unknown;
  error: string | null;
  logs: string;
}

function predictionOf(http: BackendHttp, answer: unknown): Prediction {
  if (!isObject(answer) || typeof answer.id !== 'string' || !answer.id) throw http.bad('answered without a prediction id');
  if (typeof answer.status !== 'string' || !KNOWN.includes(answer.status)) throw http.bad(`gave the prediction an unknown status (${preview(String(answer.status))})`);
  const error = answer.error === null || answer.error === undefined ? null : typeof answer.error === 'string' ? answer.error : JSON.stringify(answer.error);
  return { id: answer.id, status: answer.status, output: answer.output, error, logs: typeof answer.logs === 'string' ? answer.logs : '' };
}

/** Runs one prediction to its end and returns its files of the expected kind. */
async function predict(http: BackendHttp, model: BackendModelSettings, input: Json, expected: MediaKind, ctx: GenerationContext): Promise<OutputFile[]> {
  const progress = new ProgressReporter(ctx);
  const { path, body } = target(model);
  const wait = model.wait;
  const created = await http.json(path, ctx.signal, {
    json: { ...body, input: withoutEmpty(input) },
    ...(wait ? { headers: { prefer: `wait=${wait}` }, idleTimeoutMs: Math.max(http.endpoint.idleTimeoutMs, (wait + 10) * 1000) } : {}),
  });
  let prediction = predictionOf(http, created);
  try {
    while (!FINAL.includes(prediction.status)) {
      const fraction = logProgress(prediction.logs);
      if (fraction !== null) progress.report(fraction * 0.9);
      await http.pause(ctx.signal);
      prediction = predictionOf(http, await http.json(`/predictions/${encodeURIComponent(prediction.id)}`, ctx.signal));
    }
  } catch (err) {
    if (ctx.signal.aborted) await http.send(`/predictions/${encodeURIComponent(prediction.id)}/cancel`, AbortSignal.timeout(5000), { method: 'POST' }).catch(() => undefined);
    throw err;
  }
  if (prediction.status === 'failed') throw http.bad(`the prediction failed: ${prediction.error ?? 'no reason given'}`);
  if (prediction.status !== 'succeeded') throw http.bad(`the prediction was ${prediction.status} at the backend`);
  const urls = outputUrls(prediction.output);
  if (urls.length === 0) throw http.bad(`the prediction succeeded without output files (${preview(JSON.stringify(prediction.output ?? null))})`);
  const files: OutputFile[] = [];
  let other = '';
  for (const url of urls.slice(0, 16)) {
    const file = await http.download(url, ctx.signal);
    const declared = file.contentType.split(';')[0]!.trim();
    const sniffed = sniffMedia(file.body);
    const kind = sniffed?.kind ?? (['image', 'video', 'audio'].find((k) => declared.startsWith(`${k}/`)) as MediaKind | undefined);
    if (kind && kind !== expected) {
      other ||= sniffed?.contentType ?? declared;
      continue;
    }
    files.push(outputFileOf(http, file.body, expected, file.contentType));
  }
  if (files.length === 0) throw http.bad(`the prediction made ${other || 'files'} but no ${expected}`);
  progress.done();
  return files;
}

/** Every file address in an output: a URL, a list of them, or an object holding them. */
function outputUrls(output: unknown, found: string[] = []): string[] {
  if (typeof output === 'string') {
    if (/^(https?:\/\/|data:)/i.test(output)) found.push(output);
  } else if (Array.isArray(output)) for (const o of output) outputUrls(o, found);
  else if (isObject(output)) for (const o of Object.values(output)) outputUrls(o, found);
  return found;
}

/** Models print progress bars in their logs (`45%|████▌     | 9/20`): the last one says how far it is. */
function logProgress(logs: string): number | null {
  const matches = [...logs.matchAll(/(\d{1,3})%\|/g)];
  const last = matches.at(-1);
  return last ? Math.min(100, Number(last[1])) / 100 : null;
}
