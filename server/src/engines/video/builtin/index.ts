/**
 * The built-in offline video engine: a procedural scene filmed frame by frame in one of five
 * styles, encoded to MP4 (H.264, yuv420p, faststart) by ffmpeg. No network, no keys, and the same
 * request gives the same frames.
 */
import { EngineError, VIDEO_STYLES, type GenerationContext, type OutputFile, type VideoEngine, type VideoRequest } from '../../types.ts';
import { abortReason, checkInt, checkNumber, normaliseSeed, throwIfAborted, yieldToLoop } from '../../procedural/model.ts';
import { resolveFfmpeg, startEncoder, type Encoder } from './ffmpeg.ts';
import { FrameRenderer } from './frames.ts';
import { proceduralVideoModel, VIDEO_LIMITS } from './model.ts';

export { proceduralVideoModel, PROCEDURAL_VIDEO_MODEL_ID, VIDEO_LIMITS } from './model.ts';
export { resolveFfmpeg } from './ffmpeg.ts';

export interface BuiltinVideoEngineOptions {
  /** The ffmpeg binary; default FFMPEG_PATH, else `ffmpeg` on PATH (resolved at each generation). */
  ffmpegPath?: string;
  /** Minimum time between progress reports, ms (default 100). */
  progressIntervalMs?: number;
}

export interface BuiltinVideoEngine extends VideoEngine {
  readonly model: typeof proceduralVideoModel;
}

function checkRequest(req: VideoRequest): VideoRequest {
  if (typeof req.prompt !== 'string') throw new EngineError('VALIDATION_FAILED', 'prompt must be a string');
  if (!(VIDEO_STYLES as readonly string[]).includes(req.style)) {
    throw new EngineError('VALIDATION_FAILED', `style must be one of ${VIDEO_STYLES.join(', ')} (got ${String(req.style)})`);
  }
  const width = checkInt('width', req.width, VIDEO_LIMITS.width);
  const height = checkInt('height', req.height, VIDEO_LIMITS.height);
  if (width % 2 !== 0 || height % 2 !== 0) throw new EngineError('VALIDATION_FAILED', 'width and height must be even (H.264 yuv420p)');
  const fps = checkInt('fps', req.fps, VIDEO_LIMITS.fps);
  const durationSec = checkNumber('durationSec', req.durationSec, VIDEO_LIMITS.durationSec);
  return { ...req, width, height, fps, durationSec, seed: normaliseSeed(req.seed) };
}

export function createBuiltinVideoEngine(options: BuiltinVideoEngineOptions = {}): BuiltinVideoEngine {
  const interval = options.progressIntervalMs ?? 100;
  return {
    kind: 'video',
    model: proceduralVideoModel,

    async generate(request: VideoRequest, ctx: GenerationContext): Promise<OutputFile> {
      const req = checkRequest(request);
      throwIfAborted(ctx);
      const ffmpegPath = options.ffmpegPath ?? resolveFfmpeg();
      const started = performance.now();
      ctx.onProgress(0);
      const renderer = new FrameRenderer(req);
      const frames = renderer.frameCount;
      let encoder: Encoder | null = null;
      const onAbort = (): void => {
        void encoder?.kill();
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        encoder = await startEncoder({ ffmpegPath, width: req.width, height: req.height, fps: req.fps });
        let lastReport = 0;
        for (let i = 0; i < frames; i++) {
          if (ctx.signal.aborted) throw abortReason(ctx.signal);
          const px = renderer.render(i);
          await encoder.write(px);
          const now = performance.now();
          if (now - lastReport >= interval || i === frames - 1) {
            lastReport = now;
            const done = i + 1;
            const perFrame = (now - started) / done;
            // The last 3% is ffmpeg finishing the file (flush and faststart rewrite).
            const remaining = perFrame * (frames - done) + perFrame * frames * 0.03;
            ctx.onProgress((done / frames) * 0.97, Math.round(remaining));
            // Let the abort signal and other requests through now and then.
            await yieldToLoop();
          }
        }
        if (ctx.signal.aborted) throw abortReason(ctx.signal);
        const data = await encoder.finish();
        if (ctx.signal.aborted) throw abortReason(ctx.signal);
        ctx.onProgress(1, 0);
        return {
          data,
          contentType: 'video/mp4',
          extension: 'mp4',
          width: req.width,
          height: req.height,
          durationMs: Math.round((frames / req.fps) * 1000),
        };
      } catch (err) {
        await encoder?.kill();
        if (ctx.signal.aborted) throw abortReason(ctx.signal);
        throw err;
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
