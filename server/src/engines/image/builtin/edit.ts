/**
 * Image-to-image: the uploaded picture is moved toward the prompt in two stages whose weights grow
 * with `strength`: first it is restyled (a gradient map onto the prompt's palette plus the style's
 * own filter: posterize, ink lines, soft focus, glow), then it is blended with the prompt's own
 * procedural rendering. 0 returns the picture as uploaded (resized); 1 is mostly the rendering.
 */
import { loadImage } from '@napi-rs/canvas';
import { EngineError } from '../../types.ts';
import type { Rgb } from '../../procedural/color.ts';
import { toneRamp } from '../../procedural/palette.ts';
import { applyGrade, applyPaper, applySketch, blurPixels, edgeMagnitude, grade, planGrade } from '../../procedural/post.ts';
import { mixSeeds } from '../../procedural/prng.ts';
import { canvasOf } from '../../procedural/scene.ts';
import { drawPicture, finishPixels, type Rendering } from './render.ts';
import { IMAGE_SIZE_LIMIT } from './model.ts';

export type InputFormat = 'png' | 'jpeg' | 'webp';

export function sniffFormat(bytes: Uint8Array): InputFormat | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 12 &&
    String.fromCharCode(bytes[0] as number, bytes[1] as number, bytes[2] as number, bytes[3] as number) === 'RIFF' &&
    String.fromCharCode(bytes[8] as number, bytes[9] as number, bytes[10] as number, bytes[11] as number) === 'WEBP'
  )
    return 'webp';
  return null;
}

const MAX_INPUT_SIDE = 8192;

/**
 * Whether the file is whole: decoders draw a truncated upload with its missing part blank, so an
 * interrupted upload is refused here rather than edited. PNG: the chunks run to IEND; JPEG: it
 * ends with EOI; WebP: the RIFF size covers the bytes.
 */
function isComplete(bytes: Uint8Array, format: InputFormat): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    let at = 8;
    while (at + 12 <= bytes.length) {
      const len = view.getUint32(at);
      const type = String.fromCharCode(bytes[at + 4] as number, bytes[at + 5] as number, bytes[at + 6] as number, bytes[at + 7] as number);
      if (type === 'IEND') return true;
      at += 12 + len;
    }
    return false;
  }
  if (format === 'jpeg') {
    // Trailing padding after EOI is common; look at the last few bytes.
    for (let i = bytes.length - 2; i >= Math.max(2, bytes.length - 64); i--) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
    return false;
  }
  return bytes.length >= 8 && view.getUint32(4, true) + 8 <= bytes.length;
}

export interface DecodedInput {
  width: number;
  height: number;
  image: Awaited<ReturnType<typeof loadImage>>;
}

export async function decodeInput(bytes: Uint8Array): Promise<DecodedInput> {
  const format = sniffFormat(bytes);
  if (!format) throw new EngineError('VALIDATION_FAILED', 'The image must be a PNG, JPEG or WebP file');
  if (!isComplete(bytes, format)) throw new EngineError('VALIDATION_FAILED', `The ${format.toUpperCase()} image is truncated`);
  let image: DecodedInput['image'];
  try {
    image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw new EngineError('VALIDATION_FAILED', `The ${format.toUpperCase()} image could not be decoded`);
  }
  if (!image.width || !image.height) throw new EngineError('VALIDATION_FAILED', 'The image has no pixels');
  if (image.width > MAX_INPUT_SIDE || image.height > MAX_INPUT_SIDE) {
    throw new EngineError('VALIDATION_FAILED', `The image is larger than ${MAX_INPUT_SIDE} px on a side`);
  }
  return { width: image.width, height: image.height, image };
}

/** Output size for an edit: the request's when valid, else the input's scaled into the limits. */
export function editSize(reqW: number, reqH: number, input: { width: number; height: number }): { width: number; height: number } {
  const { min, max } = IMAGE_SIZE_LIMIT;
  const ok = (v: number): boolean => Number.isInteger(v) && v >= min && v <= max;
  if (ok(reqW) && ok(reqH)) return { width: reqW, height: reqH };
  let w = input.width;
  let h = input.height;
  const up = Math.max(1, min / Math.min(w, h));
  w *= up;
  h *= up;
  const down = Math.min(1, max / Math.max(w, h));
  w *= down;
  h *= down;
  return { width: Math.max(min, Math.min(max, Math.round(w))), height: Math.max(min, Math.min(max, Math.round(h))) };
}

/** The input drawn to cover width×height (centred crop), as RGBA. */
export function fitInput(input: DecodedInput, width: number, height: number): Uint8ClampedArray {
  const { ctx } = canvasOf(width, height);
  const k = Math.max(width / input.width, height / input.height);
  const dw = input.width * k;
  const dh = input.height * k;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(input.image, (width - dw) / 2, (height - dh) / 2, dw, dh);
  return ctx.getImageData(0, 0, width, height).data;
}

/** A 256-entry lookup from luma to the prompt palette's tone ramp. */
function gradientMap(stops: Rgb[]): Uint8Array {
  const lut = new Uint8Array(256 * 3);
  const n = stops.length - 1;
  for (let l = 0; l < 256; l++) {
    const t = (l / 255) * n;
    const i = Math.min(n - 1, Math.floor(t));
    const f = t - i;
    const a = stops[i] as Rgb;
    const b = stops[i + 1] as Rgb;
    lut[l * 3] = a[0] + (b[0] - a[0]) * f;
    lut[l * 3 + 1] = a[1] + (b[1] - a[1]) * f;
    lut[l * 3 + 2] = a[2] + (b[2] - a[2]) * f;
  }
  return lut;
}

/** The input restyled by the prompt: palette and style, same composition. */
export function stylise(src: Uint8ClampedArray, r: Rendering, seed: number): Uint8ClampedArray {
  const { width, height, palette, traits, look } = r;
  const s = traits.styles;
  let px = new Uint8ClampedArray(src);
  if (s.has('dreamy') || s.has('watercolor')) px = blurPixels(px, width, height, Math.max(1, width / 400)) as Uint8ClampedArray<ArrayBuffer>;
  // Gradient map onto the palette, keeping a little of the original colour for life.
  const ramp = toneRamp(palette);
  // Stretch the ramp so the darkest input maps to the darkest stop: measure the input's luma range.
  let lo = 255;
  let hi = 0;
  for (let i = 0; i < px.length; i += 16) {
    const l = ((px[i] as number) * 54 + (px[i + 1] as number) * 183 + (px[i + 2] as number) * 19) >> 8;
    if (l < lo) lo = l;
    if (l > hi) hi = l;
  }
  const span = Math.max(1, hi - lo);
  const lut = gradientMap(ramp.length >= 2 ? ramp : [palette.shadow, palette.light]);
  const keep = s.has('noir') ? 0 : 0.25;
  for (let i = 0; i < px.length; i += 4) {
    const r0 = px[i] as number;
    const g0 = px[i + 1] as number;
    const b0 = px[i + 2] as number;
    const l = ((r0 * 54 + g0 * 183 + b0 * 19) >> 8) - lo;
    const t = Math.max(0, Math.min(255, Math.round((l * 255) / span)));
    px[i] = (lut[t * 3] as number) * (1 - keep) + r0 * keep;
    px[i + 1] = (lut[t * 3 + 1] as number) * (1 - keep) + g0 * keep;
    px[i + 2] = (lut[t * 3 + 2] as number) * (1 - keep) + b0 * keep;
  }
  if (s.has('neon')) {
    // Edges light up in the accent colours over a darkened picture.
    const edges = edgeMagnitude(src, width, height);
    const a = palette.accents[0] ?? palette.glow;
    const b = palette.accents[1] ?? palette.light;
    for (let j = 0, i = 0; j < edges.length; j++, i += 4) {
      const e = Math.min(1, (edges[j] as number) / 90);
      const c = (j % width) / width;
      px[i] = (px[i] as number) * 0.45 + (a[0] + (b[0] - a[0]) * c) * e;
      px[i + 1] = (px[i + 1] as number) * 0.45 + (a[1] + (b[1] - a[1]) * c) * e;
      px[i + 2] = (px[i + 2] as number) * 0.45 + (a[2] + (b[2] - a[2]) * c) * e;
    }
  }
  if (look.sketch) applySketch(px, width, height, palette.paper, palette.shadow, 0.45);
  applyPaper(px, width, height, mixSeeds(seed, 0xaa), look.texture, palette.paper);
  const g = { ...look.grade, grain: 0, vignette: look.grade.vignette * 0.6 };
  if (s.has('flat') || s.has('minimal') || s.has('geometric')) g.posterize = s.has('minimal') ? 4 : 6;
  applyGrade(px, planGrade(width, height, g), 1);
  return px;
}

function smoothstep(t: number): number {
  const x = Math.max(0, Math.min(1, t));
  return x * x * (3 - 2 * x);
}

/** The weights of the two stages for a strength; both grow with it, so the change does too. */
export function editWeights(strength: number): { styled: number; rendered: number } {
  const s = Math.max(0, Math.min(1, strength));
  return { styled: smoothstep(s * 1.6), rendered: 0.85 * Math.pow(s, 1.7) };
}

export async function editPicture(
  input: DecodedInput,
  prompt: string,
  negativePrompt: string,
  seed: number,
  width: number,
  height: number,
  strength: number,
): Promise<Uint8ClampedArray> {
  const base = fitInput(input, width, height);
  const { styled, rendered } = editWeights(strength);
  if (styled === 0 && rendered === 0) return base;
  const r = drawPicture(prompt, negativePrompt, seed, width, height);
  const render = r.drawn();
  finishPixels(render, r, seed, 0);
  const styledPx = stylise(base, r, seed);
  const out = new Uint8ClampedArray(base.length);
  // The rendering is laid in following the input's light and dark, so its shapes stay readable.
  const follow = 0.35;
  for (let i = 0; i < out.length; i += 4) {
    const l = ((base[i] as number) * 54 + (base[i + 1] as number) * 183 + (base[i + 2] as number) * 19) >> 8;
    const shade = 1 - follow + (follow * 2 * l) / 255;
    for (let c = 0; c < 3; c++) {
      const b = base[i + c] as number;
      const s1 = b + ((styledPx[i + c] as number) - b) * styled;
      const p = Math.min(255, (render[i + c] as number) * shade);
      out[i + c] = s1 + (p - s1) * rendered;
    }
    out[i + 3] = 255;
  }
  // A touch of grain so the result matches the engine's renders; none at strength 0.
  const grain = r.look.grade.grain * Math.min(1, strength * 1.5);
  if (grain > 0) applyGrade(out, planGrade(width, height, grade({ grain })), mixSeeds(seed, 0x9a1));
  return out;
}
