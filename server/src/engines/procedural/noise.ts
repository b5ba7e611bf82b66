/** Value noise, seeded: ridgelines (1D) and soft textures (2D). */
import { fmix32 } from './prng.ts';

const smooth = (t: number): number => t * t * (3 - 2 * t);

/** 1D value noise in [-1, 1]. */
export function noise1(seed: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = (fmix32((i * 0x9e3779b1) ^ seed) / 4294967296) * 2 - 1;
  const b = (fmix32(((i + 1) * 0x9e3779b1) ^ seed) / 4294967296) * 2 - 1;
  return a + (b - a) * smooth(f);
}

/** 1D fractal noise, roughly in [-1, 1]. */
export function fbm1(seed: number, x: number, octaves = 5, gain = 0.5): number {
  let sum = 0;
  let amp = 1;
  let norm = 0;
  let freq = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * noise1(seed + o * 1013, x * freq);
    norm += amp;
    amp *= gain;
    freq *= 2.03;
  }
  return sum / norm;
}

/** Ridged 1D noise in [0, 1]: sharp crests, the profile of mountains. */
export function ridged1(seed: number, x: number, octaves = 5): number {
  let sum = 0;
  let amp = 1;
  let norm = 0;
  let freq = 1;
  for (let o = 0; o < octaves; o++) {
    const n = 1 - Math.abs(noise1(seed + o * 7919, x * freq));
    sum += amp * n * n;
    norm += amp;
    amp *= 0.5;
    freq *= 2.1;
  }
  return sum / norm;
}

function lattice(seed: number, x: number, y: number): number {
  return fmix32(Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1) ^ seed) / 4294967296;
}

/** 2D value noise in [0, 1]. */
export function noise2(seed: number, x: number, y: number): number {
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const fx = smooth(x - xi);
  const fy = smooth(y - yi);
  const a = lattice(seed, xi, yi);
  const b = lattice(seed, xi + 1, yi);
  const c = lattice(seed, xi, yi + 1);
  const d = lattice(seed, xi + 1, yi + 1);
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

export function fbm2(seed: number, x: number, y: number, octaves = 4): number {
  let sum = 0;
  let amp = 1;
  let norm = 0;
  let freq = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * noise2(seed + o * 31337, x * freq, y * freq);
    norm += amp;
    amp *= 0.5;
    freq *= 2;
  }
  return sum / norm;
}

/**
 * A `size`×`size` grid of fractal noise in [0, 1], meant to be sampled bilinearly at a lower
 * resolution than the picture: cheap low-frequency texture (clouds, pigment, paper).
 */
export function noiseField(seed: number, size: number, cells: number, octaves = 4): Float32Array {
  const out = new Float32Array(size * size);
  const k = cells / size;
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out[y * size + x] = fbm2(seed, x * k, y * k, octaves);
  return out;
}
