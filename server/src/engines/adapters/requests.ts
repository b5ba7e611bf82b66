/** What our requests become on the way to a backend: template values, sizes, the video style. */
import type { ImageEditRequest, ImageRequest, MusicRequest, VideoRequest } from '../types.ts';
import { imageSize, sniffMedia } from './media.ts';
import type { TemplateValues } from './placeholders.ts';

export function imageValues(req: ImageRequest, remote: string, size?: { width: number; height: number }): TemplateValues {
  const edit = 'strength' in req ? (req as ImageEditRequest) : null;
  return {
    prompt: req.prompt,
    negative_prompt: req.negativePrompt ?? '',
    seed: req.seed,
    width: size?.width ?? req.width,
    height: size?.height ?? req.height,
    n: req.n,
    model: remote,
    ...(edit ? { strength: edit.strength } : {}),
  };
}

/** Remote video models take no style parameter: it goes into the prompt (one line: forms turn \n into \r\n). */
export function styledPrompt(req: VideoRequest): string {
  return `${req.prompt.trim().replace(/[.\s]+$/, '')}. Style: ${req.style}.`;
}

export function videoValues(req: VideoRequest, remote: string): TemplateValues {
  return {
    prompt: styledPrompt(req),
    negative_prompt: '',
    seed: req.seed,
    width: req.width,
    height: req.height,
    fps: req.fps,
    duration: req.durationSec,
    frames: Math.max(1, Math.round(req.durationSec * req.fps)),
    style: req.style,
    model: remote,
  };
}

export function musicValues(req: MusicRequest, remote: string): TemplateValues {
  return { prompt: req.prompt, seed: req.seed, duration: req.durationSec, model: remote };
}

/**
 * The size an edit comes out at: the one asked for, else the uploaded picture's own, scaled down
 * to fit `maxSide` and rounded to `multiple` (Stable Diffusion works in blocks of 8 pixels).
 */
export function pictureSize(req: ImageEditRequest, multiple = 1, maxSide = 1536, fallback = 512): { width: number; height: number } {
  if (req.width > 0 && req.height > 0) return { width: req.width, height: req.height };
  const own = imageSize(req.image, sniffMedia(req.image)?.contentType ?? '');
  if (!own || own.width <= 0 || own.height <= 0) return { width: fallback, height: fallback };
  const scale = Math.min(1, maxSide / Math.max(own.width, own.height));
  const round = (v: number) => Math.max(multiple, Math.round((v * scale) / multiple) * multiple);
  return { width: round(own.width), height: round(own.height) };
}
