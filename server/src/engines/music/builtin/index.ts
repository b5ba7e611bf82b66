/**
 * The built-in offline music engine: a procedural composer and synthesiser, not a neural model.
 * The prompt's words choose the style, tempo, key, mode and instruments; the seed chooses the
 * rest; the result is an MP3 encoded by ffmpeg.
 */
import { EngineError, type GenerationContext, type MusicEngine, type MusicRequest, type OutputFile } from '../../types.ts';
import { SAMPLE_RATE } from './dsp.ts';
import { resolveFfmpegPath, startMp3Encoder } from './encode.ts';
import { renderMusicPcm } from './render.ts';

export { renderMusicPcm, renderPlanPcm, type RenderedMusic, type RenderOptions } from './render.ts';
export { composeMusic, type MusicPlan } from './compose.ts';
export { analysePrompt } from './prompt.ts';
export { resolveFfmpegPath } from './encode.ts';

export interface BuiltinModelDescriptor {
  id: string;
  kind: 'image' | 'video' | 'music' | 'chat';
  engine: 'builtin';
  displayName: string;
  /** One honest line for model lists. */
  description: string;
  parameters: Record<string, { default: number; min: number; max: number; unit?: string }>;
}

export const BUILTIN_MUSIC_MODEL = {
  id: 'atelier-procedural-music-1',
  kind: 'music',
  engine: 'builtin',
  displayName: 'Atelier Procedural Music 1',
  description:
    'Procedural composer and synthesiser, not a neural model: style, tempo, key, mode and instruments follow the words of the prompt, and the same prompt and seed give the same MP3.',
  parameters: {
    durationSec: { default: 30, min: 3, max: 120, unit: 's' },
  },
} as const satisfies BuiltinModelDescriptor;

export interface BuiltinMusicEngineOptions {
  /** Path to ffmpeg; default `FFMPEG_PATH` or `ffmpeg` on the PATH. */
  ffmpegPath?: string;
  bitrateKbps?: number;
}

export function createBuiltinMusicEngine(options: BuiltinMusicEngineOptions = {}): MusicEngine {
  return {
    kind: 'music',
    async generate(request: MusicRequest, ctx: GenerationContext): Promise<OutputFile> {
      const { min, max } = BUILTIN_MUSIC_MODEL.parameters.durationSec;
      const durationSec = Number(request.durationSec);
      if (!Number.isFinite(durationSec) || durationSec < min || durationSec > max)
        throw new EngineError('VALIDATION_FAILED', `durationSec must be between ${min} and ${max} seconds`);
      const seed = Number.isFinite(request.seed) ? Math.trunc(request.seed) >>> 0 : 0;
      const prompt = String(request.prompt ?? '');
      ctx.signal.throwIfAborted();
      const started = performance.now();
      let lastReport = -Infinity;
      // At most ten reports a second: they travel to every watcher of the task.
      const report = (fraction: number) => {
        const now = performance.now();
        if (now - lastReport < 100 && fraction < 1) return;
        lastReport = now;
        const elapsed = now - started;
        const eta = fraction > 0.02 ? (elapsed / fraction) * (1 - fraction) : undefined;
        ctx.onProgress(fraction, eta === undefined ? undefined : Math.round(eta));
      };
      report(0);
      // Encoding is about a quarter of the work; the render reports the first 85 %.
      const encoder = startMp3Encoder({
        ffmpegPath: options.ffmpegPath ?? resolveFfmpegPath(),
        sampleRate: SAMPLE_RATE,
        channels: 2,
        bitrateKbps: options.bitrateKbps ?? 192,
        metadata: { title: prompt.slice(0, 120) || 'Untitled', comment: `${BUILTIN_MUSIC_MODEL.id} seed ${seed}`, encoded_by: 'Atelier' },
        signal: ctx.signal,
      });
      try {
        await encoder.ready;
        const rendered = await renderMusicPcm({ prompt, seed, durationSec }, { signal: ctx.signal, onProgress: (f) => report(f * 0.85) });
        report(0.86);
        const data = await encoder.encode(rendered.pcm);
        ctx.onProgress(1, 0);
        return { data, contentType: 'audio/mpeg', extension: 'mp3', durationMs: Math.round(durationSec * 1000) };
      } catch (err) {
        encoder.kill();
        throw err;
      }
    },
  };
}
