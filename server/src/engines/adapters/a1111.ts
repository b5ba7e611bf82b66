/**
 * AUTOMATIC1111-style Stable Diffusion web UIs (and the forks that keep its API: Forge, SD.Next):
 * POST /sdapi/v1/txt2img and /sdapi/v1/img2img answer with the pictures in base64 when done;
 * meanwhile GET /sdapi/v1/progress says how far the backend is. A cancelled task interrupts it
 * (POST /sdapi/v1/interrupt). With --api-auth, the key is `user:password`.
 */
import type { GenerationContext, ImageEngine, ImageRequest, OutputFile } from '../types.ts';
import { BackendHttp, type BackendEndpoint } from './backendHttp.ts';
import { decodeBase64, outputFileOf } from './media.ts';
import { fillTemplate, withoutEmpty } from './placeholders.ts';
import { ProgressReporter } from './progress.ts';
import { imageValues, pictureSize } from './requests.ts';
import type { BackendModelSettings } from './settings.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function a1111ImageEngine(endpoint: BackendEndpoint, model: BackendModelSettings): ImageEngine {
  const http = new BackendHttp(endpoint, 'IMAGE_GENERATE_FAILED');
  const remote = model.remoteModel ?? '';

  function body(req: ImageRequest, size: { width: number; height: number }): Json {
    const values = imageValues(req, remote, size);
    return {
      prompt: req.prompt,
      negative_prompt: req.negativePrompt ?? '',
      seed: req.seed,
      width: size.width,
      height: size.height,
      batch_size: req.n,
      n_iter: 1,
      steps: 20,
      cfg_scale: 7,
      send_images: true,
      save_images: false,
      ...(remote ? { override_settings: { sd_model_checkpoint: remote }, override_settings_restore_afterwards: true } : {}),
      ...(model.input ? withoutEmpty(fillTemplate(model.input, values)) : {}),
    };
  }

  async function run(path: string, json: Json, n: number, ctx: GenerationContext): Promise<OutputFile[]> {
    const progress = new ProgressReporter(ctx);
    const stop = new AbortController();
    const watching = watchProgress(http, AbortSignal.any([ctx.signal, stop.signal]), progress);
    let answer: unknown;
    try {
      // One request for the whole run: silence is expected until the pictures are ready.
      answer = await http.json(path, ctx.signal, { json, idleTimeoutMs: null });
    } catch (err) {
      if (ctx.signal.aborted) await http.send('/sdapi/v1/interrupt', AbortSignal.timeout(5000), { method: 'POST' }).catch(() => undefined);
      throw err;
    } finally {
      stop.abort();
      await watching;
    }
    const images = isObject(answer) ? answer.images : undefined;
    if (!Array.isArray(images) || images.length === 0) throw http.bad('answered without images[]');
    // With a batch, the web UI puts a grid of all pictures first: the last n are the pictures.
    const files = images.slice(-n).map((b64, i) => outputFileOf(http, decodeBase64(http, b64, `images[${i}]`), 'image'));
    if (files.length < n) throw http.bad(`asked for ${n} pictures, got ${files.length}`);
    progress.done();
    return files;
  }

  return {
    kind: 'image',
    generate(req, ctx) {
      return run('/sdapi/v1/txt2img', body(req, { width: req.width, height: req.height }), req.n, ctx);
    },
    edit(req, ctx) {
      const size = pictureSize(req, 8);
      const json = {
        ...body(req, size),
        init_images: [Buffer.from(req.image).toString('base64')],
        denoising_strength: req.strength,
      };
      return run('/sdapi/v1/img2img', json, req.n, ctx);
    },
  };
}

/** Polls /sdapi/v1/progress until `signal` ends; its failures only cost the progress bar. */
async function watchProgress(http: BackendHttp, signal: AbortSignal, progress: ProgressReporter): Promise<void> {
  while (!signal.aborted) {
    try {
      await http.pause(signal);
      const p = await http.json('/sdapi/v1/progress?skip_current_image=true', signal);
      if (isObject(p) && typeof p.progress === 'number' && p.progress > 0) {
        const eta = typeof p.eta_relative === 'number' && p.eta_relative > 0 ? Math.round(p.eta_relative * 1000) : undefined;
        progress.report(p.progress * 0.95, eta);
      }
    } catch {
      // Aborted, or the progress endpoint is unwell: the generation request decides the outcome.
    }
  }
}
