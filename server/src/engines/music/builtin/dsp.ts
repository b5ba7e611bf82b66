/**
 * Small, allocation-light DSP building blocks for the procedural music engine: seeded random
 * numbers, a sine table, a state-variable filter and a feedback-delay-network reverb. Everything
 * here is deterministic: the same inputs give bit-identical output on the same platform.
 */

export const SAMPLE_RATE = 44100;

/** FNV-1a over the UTF-16 code units, then a murmur3 finaliser so close strings spread apart. */
export function hash32(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number;
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** Roughly normal, mean 0, standard deviation ~1 (sum of uniforms). */
  gauss(): number;
}

/** mulberry32: tiny, fast and good enough for musical choices and noise. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    range: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted(items, weights) {
      let total = 0;
      for (const w of weights) total += Math.max(0, w);
      let r = next() * total;
      for (let i = 0; i < items.length; i++) {
        r -= Math.max(0, weights[i] ?? 0);
        if (r < 0) return items[i]!;
      }
      return items[items.length - 1]!;
    },
    gauss: () => (next() + next() + next() + next() - 2) * 1.732,
  };
  return rng;
}

export const mtof = (midi: number) => 440 * Math.pow(2, (midi - 69) / 12);

/** One cycle of a sine, 4096 points plus a guard point for linear interpolation. */
export const SINE_SIZE = 4096;
export const SINE = new Float64Array(SINE_SIZE + 1);
for (let i = 0; i <= SINE_SIZE; i++) SINE[i] = Math.sin((2 * Math.PI * i) / SINE_SIZE);

/** Sine of a phase given in cycles (any real number). */
export function sinCycles(phase: number): number {
  const p = (phase - Math.floor(phase)) * SINE_SIZE;
  const i = p | 0;
  const a = SINE[i]!;
  return a + (SINE[i + 1]! - a) * (p - i);
}

/**
 * Topology-preserving state-variable filter (Zavalishin). `set` is the expensive part (a tan),
 * so callers update it at control rate.
 */
export class Svf {
  a1 = 0;
  a2 = 0;
  a3 = 0;
  k = 1;
  ic1 = 0;
  ic2 = 0;
  set(cutoffHz: number, q: number): void {
    const fc = Math.min(Math.max(cutoffHz, 20), SAMPLE_RATE * 0.45);
    const g = Math.tan((Math.PI * fc) / SAMPLE_RATE);
    this.k = 1 / Math.max(q, 0.3);
    this.a1 = 1 / (1 + g * (g + this.k));
    this.a2 = g * this.a1;
    this.a3 = g * this.a2;
  }
  /** Returns the low-pass output; `band` and `high` are left in fields for callers who need them. */
  band = 0;
  lowpass(v0: number): number {
    const v3 = v0 - this.ic2;
    const v1 = this.a1 * this.ic1 + this.a2 * v3;
    const v2 = this.ic2 + this.a2 * this.ic1 + this.a3 * v3;
    this.ic1 = 2 * v1 - this.ic1;
    this.ic2 = 2 * v2 - this.ic2;
    this.band = v1;
    return v2;
  }
  bandpass(v0: number): number {
    this.lowpass(v0);
    return this.band;
  }
  highpass(v0: number): number {
    const low = this.lowpass(v0);
    return v0 - this.k * this.band - low;
  }
}

/** Per-sample multiplier that makes an exponential decay fall by 60 dB in `seconds`. */
export const t60 = (seconds: number) => Math.pow(10, -3 / (Math.max(seconds, 1e-4) * SAMPLE_RATE));

/**
 * An 8-line feedback delay network reverb with a Hadamard mixing matrix, damping in every line
 * and two input diffusers. Mono in, stereo out (added into an interleaved stereo buffer). The
 * eight lines are unrolled by hand: this loop runs for every sample of every piece.
 */
export function applyReverb(
  input: Float32Array,
  out: Float32Array,
  options: { seconds: number; size: number; damping: number; wet: number; preDelayMs: number },
  from = 0,
  to = input.length,
  state?: ReverbState,
): ReverbState {
  const s = state ?? createReverbState(options);
  const [d0, d1, d2, d3, d4, d5, d6, d7] = s.lines as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  const L = s.lengths;
  const n0 = L[0]!, n1 = L[1]!, n2 = L[2]!, n3 = L[3]!, n4 = L[4]!, n5 = L[5]!, n6 = L[6]!, n7 = L[7]!;
  const G = s.gains;
  const g0 = G[0]!, g1 = G[1]!, g2 = G[2]!, g3 = G[3]!, g4 = G[4]!, g5 = G[5]!, g6 = G[6]!, g7 = G[7]!;
  let p0 = s.pos[0]!, p1 = s.pos[1]!, p2 = s.pos[2]!, p3 = s.pos[3]!, p4 = s.pos[4]!, p5 = s.pos[5]!, p6 = s.pos[6]!, p7 = s.pos[7]!;
  let l0 = s.lp[0]!, l1 = s.lp[1]!, l2 = s.lp[2]!, l3 = s.lp[3]!, l4 = s.lp[4]!, l5 = s.lp[5]!, l6 = s.lp[6]!, l7 = s.lp[7]!;
  const damp = s.damp;
  const wet = options.wet;
  const pre = s.pre;
  const preLen = pre.length;
  let prePos = s.prePos;
  const a0 = s.ap[0]!;
  const a1 = s.ap[1]!;
  const an0 = s.apLen[0]!;
  const an1 = s.apLen[1]!;
  let ap0 = s.apPos[0]!;
  let ap1 = s.apPos[1]!;
  const norm = 0.35355339;
  for (let n = from; n < to; n++) {
    // Pre-delay, then two Schroeder all-pass diffusers.
    let x = pre[prePos]!;
    pre[prePos] = input[n]!;
    if (++prePos === preLen) prePos = 0;
    let b = a0[ap0]!;
    let y = -0.6 * x + b;
    a0[ap0] = x + 0.6 * y;
    if (++ap0 === an0) ap0 = 0;
    x = y;
    b = a1[ap1]!;
    y = -0.6 * x + b;
    a1[ap1] = x + 0.6 * y;
    if (++ap1 === an1) ap1 = 0;
    x = y * 0.5;
    // Read and damp the lines.
    l0 = d0[p0]! + (l0 - d0[p0]!) * damp;
    l1 = d1[p1]! + (l1 - d1[p1]!) * damp;
    l2 = d2[p2]! + (l2 - d2[p2]!) * damp;
    l3 = d3[p3]! + (l3 - d3[p3]!) * damp;
    l4 = d4[p4]! + (l4 - d4[p4]!) * damp;
    l5 = d5[p5]! + (l5 - d5[p5]!) * damp;
    l6 = d6[p6]! + (l6 - d6[p6]!) * damp;
    l7 = d7[p7]! + (l7 - d7[p7]!) * damp;
    const h0 = l0 * g0, h1 = l1 * g1, h2 = l2 * g2, h3 = l3 * g3, h4 = l4 * g4, h5 = l5 * g5, h6 = l6 * g6, h7 = l7 * g7;
    out[2 * n] = out[2 * n]! + (h0 - h2 + h4 - h6) * wet;
    out[2 * n + 1] = out[2 * n + 1]! + (h1 - h3 + h5 - h7) * wet;
    // 8-point Hadamard, unrolled.
    const e0 = h0 + h1, e1 = h0 - h1, e2 = h2 + h3, e3 = h2 - h3, e4 = h4 + h5, e5 = h4 - h5, e6 = h6 + h7, e7 = h6 - h7;
    const f0 = e0 + e2, f2 = e0 - e2, f1 = e1 + e3, f3 = e1 - e3, f4 = e4 + e6, f6 = e4 - e6, f5 = e5 + e7, f7 = e5 - e7;
    d0[p0] = (f0 + f4) * norm + x;
    d1[p1] = (f1 + f5) * norm - x;
    d2[p2] = (f2 + f6) * norm + x;
    d3[p3] = (f3 + f7) * norm - x;
    d4[p4] = (f0 - f4) * norm + x;
    d5[p5] = (f1 - f5) * norm - x;
    d6[p6] = (f2 - f6) * norm + x;
    d7[p7] = (f3 - f7) * norm - x;
    if (++p0 === n0) p0 = 0;
    if (++p1 === n1) p1 = 0;
    if (++p2 === n2) p2 = 0;
    if (++p3 === n3) p3 = 0;
    if (++p4 === n4) p4 = 0;
    if (++p5 === n5) p5 = 0;
    if (++p6 === n6) p6 = 0;
    if (++p7 === n7) p7 = 0;
  }
  s.pos.set([p0, p1, p2, p3, p4, p5, p6, p7]);
  s.lp.set([l0, l1, l2, l3, l4, l5, l6, l7]);
  s.apPos[0] = ap0;
  s.apPos[1] = ap1;
  s.prePos = prePos;
  return s;
}

export interface ReverbState {
  lines: Float32Array[];
  lengths: Int32Array;
  pos: Int32Array;
  gains: Float64Array;
  lp: Float64Array;
  damp: number;
  ap: Float32Array[];
  apLen: Int32Array;
  apPos: Int32Array;
  pre: Float32Array;
  prePos: number;
}

const FDN_MS = [29.7, 37.1, 41.1, 43.7, 53.3, 59.9, 67.1, 73.7];

function createReverbState(options: { seconds: number; size: number; damping: number; preDelayMs: number }): ReverbState {
  const lengths = new Int32Array(FDN_MS.map((ms) => Math.max(8, Math.round((ms * options.size * SAMPLE_RATE) / 1000))));
  const gains = new Float64Array(8);
  for (let i = 0; i < 8; i++) gains[i] = Math.pow(10, (-3 * lengths[i]!) / (options.seconds * SAMPLE_RATE));
  const apLen = new Int32Array([Math.round(0.0047 * SAMPLE_RATE), Math.round(0.0113 * SAMPLE_RATE)]);
  return {
    lines: Array.from(lengths, (n) => new Float32Array(n)),
    lengths,
    pos: new Int32Array(8),
    gains,
    lp: new Float64Array(8),
    damp: Math.min(0.95, Math.max(0, options.damping)),
    ap: Array.from(apLen, (n) => new Float32Array(n)),
    apLen,
    apPos: new Int32Array(2),
    pre: new Float32Array(Math.max(1, Math.round((options.preDelayMs * SAMPLE_RATE) / 1000))),
    prePos: 0,
  };
}
