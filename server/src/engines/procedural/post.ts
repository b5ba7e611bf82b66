/**
 * Pixel-level finishing shared by pictures and video frames: a colour grade (contrast, saturation,
 * split toning, sepia, fade, posterize), a vignette and film grain in one pass over the pixels, plus
 * a cheap bloom and the filters image-to-image uses (blur, edges).
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rgb } from './color.ts';
import { noiseField } from './noise.ts';

export interface Grade {
  /** 1 leaves contrast alone; 1.2 is punchy. */
  contrast: number;
  /** 1 leaves saturation alone; 0 is greyscale. */
  saturation: number;
  /** Raises the blacks (0 … 0.25): the faded look of old film. */
  lift: number;
  /** Lowers the whites (0 … 0.2). */
  crush: number;
  /** Tints for shadows and highlights, with their strength (0 … 1): teal-orange and the like. */
  shadowTint: Rgb | null;
  highlightTint: Rgb | null;
  split: number;
  /** 0 … 1 toward a sepia ramp. */
  sepia: number;
  /** Posterize levels per channel; 0 is off. */
  posterize: number;
  /** 0 … 1 darkening of the corners. */
  vignette: number;
  /** What the corners fade to (black by default; paper white for watercolour). */
  vignetteColor: Rgb | null;
  /** Grain amplitude in 8-bit levels (0 … 24). */
  grain: number;
  /** Exposure multiplier (1 = none). */
  exposure: number;
}

export const NEUTRAL_GRADE: Grade = {
  contrast: 1,
  saturation: 1,
  lift: 0,
  crush: 0,
  shadowTint: null,
  highlightTint: null,
  split: 0,
  sepia: 0,
  posterize: 0,
  vignette: 0,
  vignetteColor: null,
  grain: 0,
  exposure: 1,
};

export function grade(overrides: Partial<Grade>): Grade {
  return { ...NEUTRAL_GRADE, ...overrides };
}

/** What a grade needs precomputed for a given frame size; build once, reuse for every frame. */
export interface GradePlan {
  width: number;
  height: number;
  grade: Grade;
  /**
   * Per channel, the graded value for (luma, value): saturation, split toning, sepia, the tone
   * curve and posterize all depend on nothing else, so one 64 KiB table per channel does them all.
   */
  lutR: Uint8Array;
  lutG: Uint8Array;
  lutB: Uint8Array;
  /** Grain amplitude by luma, in 1/256 levels per unit of noise (integer maths in the loop). */
  grainByLuma: Int32Array;
  /** Per column and per row squared distance from the centre, pre-scaled to the vignette table. */
  vigX: Float32Array;
  vigY: Float32Array;
  /** Vignette weight (0 … 256) by quantised distance. */
  vigTable: Int32Array;
  /** The vignette weight of every pixel (0 … 255; all zero without a vignette). */
  vigMap: Uint8Array;
  identity: boolean;
}

const VIG_STEPS = 1024;

export function planGrade(width: number, height: number, g: Grade): GradePlan {
  const curve = new Float32Array(256);
  for (let v = 0; v < 256; v++) {
    let x = (v / 255) * g.exposure;
    // Contrast as an S-curve around mid grey that never clips hard.
    if (g.contrast !== 1) {
      const c = x - 0.5;
      x = 0.5 + Math.tanh(c * 2 * g.contrast) / (2 * Math.tanh(g.contrast));
    }
    x = g.lift + x * (1 - g.lift - g.crush);
    if (g.posterize > 1) x = Math.round(x * (g.posterize - 1)) / (g.posterize - 1);
    curve[v] = Math.max(0, Math.min(255, x * 255));
  }
  const lutR = new Uint8Array(65536);
  const lutG = new Uint8Array(65536);
  const lutB = new Uint8Array(65536);
  const grainByLuma = new Int32Array(256);
  const st = g.shadowTint;
  const ht = g.highlightTint;
  const luts = [lutR, lutG, lutB];
  for (let l = 0; l < 256; l++) {
    const t = l / 255;
    const sh = (1 - t) * (1 - t) * g.split;
    const hi = t * t * g.split;
    const sepia = [Math.min(255, l * 1.07 + 18), Math.min(255, l * 0.95 + 8), Math.min(255, l * 0.74)];
    for (let ch = 0; ch < 3; ch++) {
      const tone = (st ? ((st[ch] as number) - 128) * sh : 0) + (ht ? ((ht[ch] as number) - 128) * hi : 0);
      const lut = luts[ch] as Uint8Array;
      const sp = sepia[ch] as number;
      for (let v = 0; v < 256; v++) {
        let x = l + (v - l) * g.saturation + tone;
        if (g.sepia > 0) x += (sp - x) * g.sepia;
        x = x < 0 ? 0 : x > 255 ? 255 : x;
        // Interpolate the curve for smooth gradients (no banding from rounding twice).
        const i0 = Math.floor(x);
        const i1 = Math.min(255, i0 + 1);
        const f = x - i0;
        lut[(l << 8) | v] = Math.round((curve[i0] as number) * (1 - f) + (curve[i1] as number) * f);
      }
    }
    // Grain shows most in the mid-tones, as on film.
    grainByLuma[l] = Math.round(g.grain * (0.35 + 0.65 * Math.sin(Math.PI * Math.min(1, t * 1.1))) * 2);
  }
  const vigScale = (VIG_STEPS - 1) / 3;
  const vigX = new Float32Array(width);
  const vigY = new Float32Array(height);
  const aspect = width / height;
  for (let x = 0; x < width; x++) {
    const d = ((x + 0.5) / width - 0.5) * 2 * Math.sqrt(aspect);
    vigX[x] = d * d * vigScale;
  }
  for (let y = 0; y < height; y++) {
    const d = (((y + 0.5) / height - 0.5) * 2) / Math.sqrt(aspect);
    vigY[y] = d * d * vigScale;
  }
  const vigTable = new Int32Array(VIG_STEPS);
  for (let i = 0; i < VIG_STEPS; i++) {
    const d2 = (i / (VIG_STEPS - 1)) * 3;
    const d = Math.sqrt(d2) / Math.SQRT2; // 0 centre … ~1 corner
    const s = Math.max(0, Math.min(1, (d - 0.35) / 0.75));
    vigTable[i] = Math.round(g.vignette * s * s * (3 - 2 * s) * 256);
  }
  const vigMap = new Uint8Array(width * height);
  if (g.vignette > 0) {
    for (let y = 0, j = 0; y < height; y++) {
      const dy = vigY[y] as number;
      for (let x = 0; x < width; x++, j++) {
        const d = Math.min(VIG_STEPS - 1, (dy + (vigX[x] as number)) | 0);
        vigMap[j] = Math.min(255, vigTable[d] as number);
      }
    }
  }
  const identity =
    g.contrast === 1 &&
    g.saturation === 1 &&
    g.lift === 0 &&
    g.crush === 0 &&
    g.split === 0 &&
    g.sepia === 0 &&
    g.posterize === 0 &&
    g.vignette === 0 &&
    g.grain === 0 &&
    g.exposure === 1;
  return { width, height, grade: g, lutR, lutG, lutB, grainByLuma, vigX, vigY, vigTable, vigMap, identity };
}

const CLAMP_OFFSET = 384;
/** Clamps (v + CLAMP_OFFSET) to 0 … 255 by lookup. */
const CLAMP = new Uint8Array(1024).map((_, i) => Math.max(0, Math.min(255, i - CLAMP_OFFSET)));
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
// Where R, G, B and A sit in a pixel read as one 32-bit word.
const SR = LITTLE_ENDIAN ? 0 : 24;
const SG = LITTLE_ENDIAN ? 8 : 16;
const SB = LITTLE_ENDIAN ? 16 : 8;
const ALPHA = LITTLE_ENDIAN ? 0xff000000 : 0xff;

/**
 * Grades RGBA pixels in place (and makes them opaque). `seed` picks the grain pattern (a video
 * passes a new one each frame). Pixels are read and written as 32-bit words: half the time of
 * byte access, which matters at 120 frames a clip.
 */
export function applyGrade(px: Uint8ClampedArray | Uint8Array, plan: GradePlan, seed: number): void {
  if (plan.identity) return;
  const { width, height, lutR, lutG, lutB, grainByLuma } = plan;
  const vigMap = plan.vigMap;
  if (px.byteOffset % 4 !== 0) throw new RangeError('pixel buffer must be 4-byte aligned');
  const words = new Uint32Array(px.buffer, px.byteOffset, width * height);
  const g = plan.grade;
  const grainOn = g.grain > 0 ? 1 : 0;
  const vc = g.vignetteColor ?? [0, 0, 0];
  const vr = vc[0] | 0;
  const vg = vc[1] | 0;
  const vb = vc[2] | 0;
  let state = seed | 0 || 0x2545f491;
  const count = width * height;
  for (let j = 0; j < count; j++) {
    const p = words[j] as number;
    const r0 = (p >>> SR) & 255;
    const g0 = (p >>> SG) & 255;
    const b0 = (p >>> SB) & 255;
    const row = ((r0 * 54 + g0 * 183 + b0 * 19) >> 8) << 8;
    let r = lutR[row | r0] as number;
    let gg = lutG[row | g0] as number;
    let b = lutB[row | b0] as number;
    const k = vigMap[j] as number;
    if (k !== 0) {
      r += ((vr - r) * k) >> 8;
      gg += ((vg - gg) * k) >> 8;
      b += ((vb - b) * k) >> 8;
    }
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const n = ((((state >>> 24) - 128) * (grainByLuma[row >> 8] as number)) >> 8) * grainOn;
    words[j] =
      (((CLAMP[r + n + CLAMP_OFFSET] as number) << SR) |
        ((CLAMP[gg + n + CLAMP_OFFSET] as number) << SG) |
        ((CLAMP[b + n + CLAMP_OFFSET] as number) << SB) |
        ALPHA) >>>
      0;
  }
}

/** A soft glow around the bright parts: a downscaled bright pass, scaled back up and screened on. */
export function bloom(canvas: Canvas, ctx: SKRSContext2D, strength: number, threshold = 0.62): void {
  if (strength <= 0) return;
  const w = Math.max(8, Math.round(canvas.width / 10));
  const h = Math.max(8, Math.round(canvas.height / 10));
  const small = createCanvas(w, h);
  const sctx = small.getContext('2d');
  sctx.imageSmoothingEnabled = true;
  sctx.imageSmoothingQuality = 'medium';
  sctx.drawImage(canvas, 0, 0, w, h);
  const data = sctx.getImageData(0, 0, w, h);
  const px = data.data;
  const t = threshold * 255;
  const k = 255 / (255 - t);
  for (let i = 0; i < px.length; i += 4) {
    const l = ((px[i] as number) * 54 + (px[i + 1] as number) * 183 + (px[i + 2] as number) * 19) >> 8;
    const f = l > t ? ((l - t) * k) / Math.max(1, l) : 0;
    px[i] = (px[i] as number) * f;
    px[i + 1] = (px[i + 1] as number) * f;
    px[i + 2] = (px[i + 2] as number) * f;
  }
  sctx.putImageData(data, 0, 0);
  // Two passes of different radius look like a lens; blur on the small canvas is cheap.
  const blurred = createCanvas(w, h);
  const bctx = blurred.getContext('2d');
  bctx.filter = `blur(${Math.max(1, w / 60).toFixed(2)}px)`;
  bctx.drawImage(small, 0, 0);
  bctx.filter = 'none';
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  ctx.imageSmoothingEnabled = true;
  // Bilinear is smooth enough from an already blurred source ('high' costs ten times as much).
  ctx.imageSmoothingQuality = 'low';
  ctx.globalAlpha = Math.min(1, strength);
  ctx.drawImage(blurred, 0, 0, canvas.width, canvas.height);
  ctx.restore();
}

/** Separable box blur of RGBA pixels (radius in pixels), three passes ≈ gaussian. Returns a new array. */
export function blurPixels(src: Uint8ClampedArray, width: number, height: number, radius: number): Uint8ClampedArray {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(width, height);
  img.data.set(src);
  ctx.putImageData(img, 0, 0);
  const out = createCanvas(width, height);
  const octx = out.getContext('2d');
  octx.filter = `blur(${Math.max(0.5, radius)}px)`;
  octx.drawImage(canvas, 0, 0);
  octx.filter = 'none';
  return octx.getImageData(0, 0, width, height).data;
}

/** Sobel edge magnitude (0 … 255) of the luma, one byte per pixel. */
export function edgeMagnitude(src: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const luma = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < luma.length; i += 4, j++)
    luma[j] = ((src[i] as number) * 54 + (src[i + 1] as number) * 183 + (src[i + 2] as number) * 19) >> 8;
  const out = new Uint8Array(width * height);
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const p = row + x;
      const a = luma[p - width - 1] as number;
      const b = luma[p - width] as number;
      const c = luma[p - width + 1] as number;
      const d = luma[p - 1] as number;
      const f = luma[p + 1] as number;
      const g = luma[p + width - 1] as number;
      const h = luma[p + width] as number;
      const k = luma[p + width + 1] as number;
      const gx = c + 2 * f + k - a - 2 * d - g;
      const gy = g + 2 * h + k - a - 2 * b - c;
      const m = Math.abs(gx) + Math.abs(gy);
      out[p] = m > 255 ? 255 : m;
    }
  }
  return out;
}

/**
 * Paper and pigment: a low-frequency mottling (pigment settling unevenly), lighter blooms where the
 * wash pooled back, and a fine fibre texture. `amount` 0 … 1.
 */
export function applyPaper(px: Uint8ClampedArray, width: number, height: number, seed: number, amount: number, paper: Rgb): void {
  if (amount <= 0) return;
  const N = 96;
  const low = noiseFieldCached(seed, N, 5);
  const blooms = noiseFieldCached(seed ^ 0x77, N, 3);
  const sx = (N - 1) / width;
  const sy = (N - 1) / height;
  let state = (seed ^ 0x1234567) | 1;
  let i = 0;
  for (let y = 0; y < height; y++) {
    const fy = y * sy;
    const y0 = fy | 0;
    const ty = fy - y0;
    const r0 = y0 * N;
    const r1 = Math.min(N - 1, y0 + 1) * N;
    for (let x = 0; x < width; x++, i += 4) {
      const fx = x * sx;
      const x0 = fx | 0;
      const tx = fx - x0;
      const x1 = x0 + 1 < N ? x0 + 1 : x0;
      const a = (low[r0 + x0] as number) + ((low[r0 + x1] as number) - (low[r0 + x0] as number)) * tx;
      const b = (low[r1 + x0] as number) + ((low[r1 + x1] as number) - (low[r1 + x0] as number)) * tx;
      const m = a + (b - a) * ty;
      const c = (blooms[r0 + x0] as number) + ((blooms[r1 + x0] as number) - (blooms[r0 + x0] as number)) * ty;
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const fibre = ((state >>> 24) / 255 - 0.5) * 0.06;
      const dark = 1 - amount * ((m - 0.5) * 0.35 + fibre);
      const wash = c > 0.62 ? Math.min(1, (c - 0.62) * 4) * amount * 0.35 : 0;
      px[i] = ((px[i] as number) * dark) * (1 - wash) + paper[0] * wash;
      px[i + 1] = ((px[i + 1] as number) * dark) * (1 - wash) + paper[1] * wash;
      px[i + 2] = ((px[i + 2] as number) * dark) * (1 - wash) + paper[2] * wash;
    }
  }
}

const fieldCache = new Map<string, Float32Array>();
function noiseFieldCached(seed: number, size: number, cells: number): Float32Array {
  const key = `${seed}:${size}:${cells}`;
  let f = fieldCache.get(key);
  if (!f) {
    f = noiseField(seed, size, cells, 4);
    if (fieldCache.size > 32) fieldCache.clear();
    fieldCache.set(key, f);
  }
  return f;
}

/** Ink drawing: edges of the picture as lines over a light wash of its colours on paper. */
export function applySketch(px: Uint8ClampedArray, width: number, height: number, paper: Rgb, ink: Rgb, wash = 0.35): void {
  const edges = edgeMagnitude(px, width, height);
  for (let j = 0, i = 0; j < edges.length; j++, i += 4) {
    const e = edges[j] as number;
    const k = e < 18 ? 0 : e > 110 ? 1 : (e - 18) / 92;
    const r = paper[0] + ((px[i] as number) - paper[0]) * wash;
    const g = paper[1] + ((px[i + 1] as number) - paper[1]) * wash;
    const b = paper[2] + ((px[i + 2] as number) - paper[2]) * wash;
    px[i] = r + (ink[0] - r) * k;
    px[i + 1] = g + (ink[1] - g) * k;
    px[i + 2] = b + (ink[2] - b) * k;
  }
}

/** Soft focus: a blurred copy laid over at `amount`. */
export function soften(canvas: Canvas, ctx: SKRSContext2D, amount: number): void {
  if (amount <= 0) return;
  const w = Math.max(4, Math.round(canvas.width / 4));
  const h = Math.max(4, Math.round(canvas.height / 4));
  const small = createCanvas(w, h);
  const sctx = small.getContext('2d');
  sctx.filter = 'blur(1.5px)';
  sctx.drawImage(canvas, 0, 0, w, h);
  ctx.save();
  ctx.globalAlpha = amount;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(small, 0, 0, canvas.width, canvas.height);
  ctx.restore();
}
