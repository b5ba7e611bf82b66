/**
 * Seeded randomness for the procedural engines. Everything that varies in a picture or a video
 * comes from here, so the same seed and prompt always give the same pixels.
 */

/** A 32-bit hash of a string (FNV-1a over UTF-16 units, then a murmur3 finaliser for avalanche). */
export function hashString(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return fmix32(h);
}

/** murmur3's finaliser: spreads every input bit over the whole word. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines several numbers (seeds, sizes, hashes) into one 32-bit seed. */
export function mixSeeds(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    // Fold doubles beyond 32 bits (seeds may be up to 2^53) without losing the high part.
    const lo = v >>> 0;
    const hi = Math.floor(v / 4294967296) >>> 0;
    h = fmix32(h ^ lo);
    h = fmix32((h + Math.imul(hi, 0x27d4eb2f)) >>> 0);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** Roughly normal, mean 0, deviation 1 (sum of uniforms). */
  gauss(): number;
  /** An independent stream named by `label`: adding draws to one part never shifts another. */
  fork(label: string): Rng;
  /** A fresh 32-bit integer. */
  u32(): number;
}

/** sfc32: small, fast, and good enough statistically for pictures. */
export function createRng(seed: number): Rng {
  let a = fmix32(seed ^ 0x9e3779b9);
  let b = fmix32(seed + 0x6a09e667);
  let c = fmix32(seed ^ 0xbb67ae85);
  let d = 1;
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = (): number => u32() / 4294967296;
  return {
    next,
    u32,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p) => next() < p,
    gauss: () => (next() + next() + next() + next() - 2) * 1.7320508,
    fork: (label) => createRng(mixSeeds(seed, hashString(label))),
  };
}
