/**
 * The instruments: every sound is synthesised here from oscillators, noise, envelopes and filters.
 * Additive synthesis (piano, mallets, upright bass, organ), two-operator FM (electric piano, bells),
 * subtractive synthesis (pads, strings, brass, leads, basses, chiptune), Karplus-Strong plucked
 * strings (guitars, harp) and analogue-style drum models.
 *
 * A voice renders one note, mono, into a scratch buffer starting at index 0 and returns how many
 * samples it wrote; the renderer then pans it into the mix.
 */
import { createRng, mtof, SAMPLE_RATE, SINE, SINE_SIZE, sinCycles, Svf, t60 } from './dsp.ts';

export const INSTRUMENTS = [
  'piano',
  'epiano',
  'vibes',
  'bell',
  'marimba',
  'organ',
  'pad',
  'warmpad',
  'strings',
  'lowstrings',
  'choir',
  'brass',
  'lead',
  'softlead',
  'pluck',
  'guitar',
  'dguitar',
  'harp',
  'flute',
  'sax',
  'square',
  'triangle',
  'synthbass',
  'subbass',
  'bass808',
  'upright',
  'ebass',
] as const;
export type InstrumentId = (typeof INSTRUMENTS)[number];

export const DRUMS = [
  'kick',
  'kick808',
  'snare',
  'rim',
  'clap',
  'hat',
  'openhat',
  'ride',
  'crash',
  'shaker',
  'tom',
  'timpani',
  'brush',
  'chipkick',
  'chipnoise',
] as const;
export type DrumId = (typeof DRUMS)[number];

export type SoundId = InstrumentId | DrumId;

/** Where a sound sits in the mix. `duck` follows the kick (side-chain pumping). */
export interface MixSettings {
  gain: number;
  pan: number;
  send: number;
  duck?: boolean;
}

export const MIX: Record<SoundId, MixSettings> = {
  piano: { gain: 0.55, pan: 0, send: 0.35 },
  epiano: { gain: 0.5, pan: -0.1, send: 0.25 },
  vibes: { gain: 0.55, pan: 0.15, send: 0.35 },
  bell: { gain: 0.22, pan: 0.25, send: 0.5 },
  marimba: { gain: 0.5, pan: 0.1, send: 0.25 },
  organ: { gain: 0.2, pan: -0.05, send: 0.3 },
  pad: { gain: 0.085, pan: 0, send: 0.45, duck: true },
  warmpad: { gain: 0.16, pan: 0, send: 0.5 },
  strings: { gain: 0.16, pan: -0.1, send: 0.45 },
  lowstrings: { gain: 0.15, pan: 0.15, send: 0.35 },
  choir: { gain: 0.16, pan: 0.05, send: 0.55 },
  brass: { gain: 0.32, pan: 0.2, send: 0.35 },
  lead: { gain: 0.24, pan: 0.05, send: 0.3 },
  softlead: { gain: 0.2, pan: 0.05, send: 0.4 },
  pluck: { gain: 0.2, pan: -0.2, send: 0.35, duck: true },
  guitar: { gain: 0.45, pan: -0.2, send: 0.2 },
  dguitar: { gain: 0.18, pan: -0.25, send: 0.12 },
  harp: { gain: 0.45, pan: 0.25, send: 0.4 },
  flute: { gain: 0.3, pan: 0.15, send: 0.4 },
  sax: { gain: 0.2, pan: 0.1, send: 0.3 },
  square: { gain: 0.1, pan: 0.05, send: 0.1 },
  triangle: { gain: 0.3, pan: 0, send: 0.02 },
  synthbass: { gain: 0.26, pan: 0, send: 0.02, duck: true },
  subbass: { gain: 0.34, pan: 0, send: 0.02 },
  bass808: { gain: 0.5, pan: 0, send: 0 },
  upright: { gain: 0.55, pan: 0.05, send: 0.1 },
  ebass: { gain: 0.3, pan: 0, send: 0.03 },
  kick: { gain: 0.75, pan: 0, send: 0.03 },
  kick808: { gain: 0.7, pan: 0, send: 0.02 },
  snare: { gain: 0.4, pan: 0.04, send: 0.15 },
  rim: { gain: 0.25, pan: 0.1, send: 0.12 },
  clap: { gain: 0.6, pan: 0, send: 0.2 },
  hat: { gain: 0.24, pan: 0.25, send: 0.05 },
  openhat: { gain: 0.2, pan: 0.25, send: 0.08 },
  ride: { gain: 0.22, pan: -0.3, send: 0.15 },
  crash: { gain: 0.13, pan: -0.25, send: 0.3 },
  shaker: { gain: 0.1, pan: 0.35, send: 0.1 },
  tom: { gain: 0.45, pan: -0.15, send: 0.25 },
  timpani: { gain: 0.3, pan: -0.1, send: 0.35 },
  brush: { gain: 0.16, pan: 0.1, send: 0.12 },
  chipkick: { gain: 0.4, pan: 0, send: 0 },
  chipnoise: { gain: 0.14, pan: 0, send: 0 },
};

export function isDrum(id: SoundId): id is DrumId {
  return (DRUMS as readonly string[]).includes(id);
}

/** One note or hit. Times in seconds; `dur` is how long the key is held. */
export interface NoteEvent {
  time: number;
  dur: number;
  midi: number;
  vel: number;
  sound: SoundId;
  /** Added to the sound's pan, for spreading chords. */
  pan?: number;
}

/** How long after the note-off a sound may still ring, in seconds (for sizing buffers). */
export function tailSeconds(id: SoundId): number {
  switch (id) {
    case 'piano':
    case 'bell':
    case 'vibes':
    case 'harp':
    case 'timpani':
    case 'crash':
    case 'ride':
      return 2.5;
    case 'pad':
    case 'warmpad':
    case 'choir':
    case 'strings':
    case 'lowstrings':
      return 2;
    case 'kick808':
    case 'bass808':
    case 'guitar':
    case 'epiano':
      return 1.2;
    default:
      return 0.6;
  }
}

/** A cheap, smooth saturator close to tanh (Padé), exact at ±3 and clamped beyond. */
export function softClip(x: number): number {
  if (x <= -3) return -1;
  if (x >= 3) return 1;
  const x2 = x * x;
  return (x * (27 + x2)) / (27 + 9 * x2);
}

/* ------------------------------------------------------------------------------------------ */
/* Additive: a bank of exponentially decaying sine partials, each a rotating phasor.          */
/* ------------------------------------------------------------------------------------------ */

/**
 * Four decaying partials in one pass over the buffer (a quarter of the memory traffic of four
 * separate passes); returns the samples covered. Unused slots have amplitude 0.
 */
function partial4(buf: Float32Array, len: number, off: number, f: Float64Array, a: Float64Array, d: Float64Array, release: number): number {
  let end = 0;
  for (let k = 0; k < 4; k++) {
    if (a[k]! <= 0 || f[k]! >= SAMPLE_RATE * 0.45) {
      a[k] = 0;
      continue;
    }
    const audible = d[k]! < 1 ? Math.ceil(Math.log(1e-4) / Math.log(d[k]!)) : len;
    end = Math.max(end, Math.min(len, audible));
  }
  const w0 = (2 * Math.PI * f[0]!) / SAMPLE_RATE;
  const w1 = (2 * Math.PI * f[1]!) / SAMPLE_RATE;
  const w2 = (2 * Math.PI * f[2]!) / SAMPLE_RATE;
  const w3 = (2 * Math.PI * f[3]!) / SAMPLE_RATE;
  const cw0 = Math.cos(w0), sw0 = Math.sin(w0), cw1 = Math.cos(w1), sw1 = Math.sin(w1);
  const cw2 = Math.cos(w2), sw2 = Math.sin(w2), cw3 = Math.cos(w3), sw3 = Math.sin(w3);
  let c0 = a[0]!, c1 = a[1]!, c2 = a[2]!, c3 = a[3]!;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let r0 = d[0]!, r1 = d[1]!, r2 = d[2]!, r3 = d[3]!;
  const n1 = Math.min(end, off);
  for (let pass = 0; pass < 2; pass++) {
    const from = pass === 0 ? 0 : n1;
    const to = pass === 0 ? n1 : end;
    if (pass === 1) {
      r0 *= release;
      r1 *= release;
      r2 *= release;
      r3 *= release;
    }
    for (let i = from; i < to; i++) {
      let t = (c0 * cw0 - s0 * sw0) * r0;
      s0 = (c0 * sw0 + s0 * cw0) * r0;
      c0 = t;
      t = (c1 * cw1 - s1 * sw1) * r1;
      s1 = (c1 * sw1 + s1 * cw1) * r1;
      c1 = t;
      t = (c2 * cw2 - s2 * sw2) * r2;
      s2 = (c2 * sw2 + s2 * cw2) * r2;
      c2 = t;
      t = (c3 * cw3 - s3 * sw3) * r3;
      s3 = (c3 * sw3 + s3 * cw3) * r3;
      c3 = t;
      buf[i] = buf[i]! + s0 + s1 + s2 + s3;
    }
  }
  return end;
}

/** Collects partials and renders them four at a time. */
class PartialBank {
  readonly f = new Float64Array(4);
  readonly a = new Float64Array(4);
  readonly d = new Float64Array(4);
  readonly buf: Float32Array;
  readonly len: number;
  readonly off: number;
  readonly release: number;
  n = 0;
  end = 0;
  constructor(buf: Float32Array, len: number, off: number, release: number) {
    this.buf = buf;
    this.len = len;
    this.off = off;
    this.release = release;
  }
  add(freq: number, amp: number, decay: number): void {
    this.f[this.n] = freq;
    this.a[this.n] = amp;
    this.d[this.n] = decay;
    if (++this.n === 4) this.flush();
  }
  flush(): number {
    if (this.n > 0) {
      for (let k = this.n; k < 4; k++) this.a[k] = 0;
      this.end = Math.max(this.end, partial4(this.buf, this.len, this.off, this.f, this.a, this.d, this.release));
      this.n = 0;
    }
    return this.end;
  }
}

function attackRamp(buf: Float32Array, samples: number): void {
  for (let i = 0; i < samples; i++) buf[i] = buf[i]! * (i / samples);
}

function piano(buf: Float32Array, ev: NoteEvent, seed: number): number {
  const f0 = mtof(ev.midi);
  const vel = ev.vel;
  const off = Math.round(ev.dur * SAMPLE_RATE);
  const len = Math.min(buf.length, off + Math.round(0.35 * SAMPLE_RATE));
  // Low strings ring longer; louder notes are brighter (a gentler roll-off of the partials).
  const base = Math.min(9, Math.max(0.9, 7 * Math.pow(2, -(ev.midi - 48) / 14)));
  const rolloff = 2.4 - 1.1 * vel;
  const rng = createRng(seed);
  const release = t60(0.22);
  const hammer = 1 / 7.3;
  const B = 0.00018 * Math.pow(2, (ev.midi - 60) / 24);
  const amp = 0.32 * Math.pow(vel, 1.3);
  const bank = new PartialBank(buf, len, off, release);
  for (let k = 1; k <= 10; k++) {
    const fk = k * f0 * Math.sqrt(1 + B * k * k);
    if (fk > 7000) break;
    const shape = Math.abs(Math.sin(Math.PI * k * hammer)) + 0.15;
    const a = (amp * shape) / Math.pow(k, rolloff);
    if (a < amp * 0.004) continue;
    const life = base / (1 + 0.45 * (k - 1));
    if (k <= 3) {
      // Two slightly detuned strings: one fades fast (the attack's "ping"), one lingers and beats.
      bank.add(fk, a * 0.55, t60(life));
      bank.add(fk * (1 + 0.0006 + 0.0004 * rng.next()), a * 0.45, t60(life * 0.3));
    } else {
      bank.add(fk, a, t60(life * 0.6));
    }
  }
  const end = bank.flush();
  // A whisper of felt-hammer noise.
  const hn = Math.min(len, Math.round(0.012 * SAMPLE_RATE));
  let lp = 0;
  for (let i = 0; i < hn; i++) {
    lp += (rng.next() * 2 - 1 - lp) * 0.3;
    buf[i] = buf[i]! + lp * amp * 0.25 * (1 - i / hn);
  }
  attackRamp(buf, Math.round(0.002 * SAMPLE_RATE));
  return Math.max(end, hn);
}

function mallet(buf: Float32Array, ev: NoteEvent, kind: 'vibes' | 'marimba' | 'upright' | 'organ'): number {
  const f0 = mtof(ev.midi);
  const vel = ev.vel;
  const off = Math.round(ev.dur * SAMPLE_RATE);
  let len: number;
  let end = 0;
  if (kind === 'vibes') {
    len = Math.min(buf.length, off + Math.round(1.2 * SAMPLE_RATE));
    const rel = t60(0.9);
    const bank = new PartialBank(buf, len, off, rel);
    bank.add(f0, 0.3 * vel, t60(3.2));
    bank.add(f0 * 3.98, 0.08 * vel, t60(0.9));
    bank.add(f0 * 9.9, 0.03 * vel * vel, t60(0.25));
    end = bank.flush();
    // The motor's tremolo.
    for (let i = 0; i < end; i++) buf[i] = buf[i]! * (1 - 0.25 + 0.25 * Math.cos((2 * Math.PI * 5.2 * i) / SAMPLE_RATE));
    attackRamp(buf, 60);
  } else if (kind === 'marimba') {
    len = Math.min(buf.length, off + Math.round(0.4 * SAMPLE_RATE));
    const rel = t60(0.4);
    const bank = new PartialBank(buf, len, off, rel);
    bank.add(f0, 0.35 * vel, t60(0.9));
    bank.add(f0 * 3.93, 0.12 * vel, t60(0.25));
    bank.add(f0 * 10.2, 0.04 * vel, t60(0.06));
    end = bank.flush();
    attackRamp(buf, 40);
  } else if (kind === 'upright') {
    len = Math.min(buf.length, off + Math.round(0.12 * SAMPLE_RATE));
    const rel = t60(0.12);
    const bank = new PartialBank(buf, len, off, rel);
    for (let k = 1; k <= 8; k++) bank.add(f0 * k * (1 + 0.0004 * k), (0.33 * vel) / Math.pow(k, 1.6), t60(1.8 / (1 + 0.6 * (k - 1))));
    end = bank.flush();
    attackRamp(buf, 90);
  } else {
    // Drawbar organ: sustained partials 1, 2, 3, 4, 6, 8 with a key click.
    len = Math.min(buf.length, off + Math.round(0.08 * SAMPLE_RATE));
    const rel = t60(0.08);
    const bars = [
      [0.5, 0.25],
      [1, 0.4],
      [2, 0.3],
      [3, 0.2],
      [4, 0.15],
      [6, 0.08],
      [8, 0.06],
    ] as const;
    const bank = new PartialBank(buf, len, off, rel);
    for (const [r, a] of bars) bank.add(f0 * r, a * 0.22 * vel, 1);
    end = bank.flush();
    attackRamp(buf, 150);
  }
  return end;
}

/* ------------------------------------------------------------------------------------------ */
/* FM: electric piano and bells.                                                              */
/* ------------------------------------------------------------------------------------------ */

function fm(buf: Float32Array, ev: NoteEvent, kind: 'epiano' | 'bell'): number {
  const f0 = mtof(ev.midi);
  const vel = ev.vel;
  const off = Math.round(ev.dur * SAMPLE_RATE);
  const ratio = kind === 'bell' ? 3.5 : 1;
  const i0 = kind === 'bell' ? 2.2 + vel : 0.9 + 2.2 * vel;
  const idxDecay = t60(kind === 'bell' ? 1.6 : 0.7);
  const life = kind === 'bell' ? 4.5 : Math.min(4, Math.max(1.2, 3.5 * Math.pow(2, -(ev.midi - 60) / 24)));
  const ampDecay = t60(life);
  const rel = t60(kind === 'bell' ? 1.2 : 0.25);
  const len = Math.min(buf.length, off + Math.round((kind === 'bell' ? 2.5 : 0.6) * SAMPLE_RATE));
  const inc = f0 / SAMPLE_RATE;
  const minc = inc * ratio;
  let pc = 0;
  let pm = 0;
  let idx = i0;
  let amp = 0.3 * vel;
  const attack = kind === 'bell' ? 30 : 60;
  let end = len;
  for (let i = 0; i < len; i++) {
    // Modulator then carrier, both from the sine table.
    const mp = pm * SINE_SIZE;
    const mi = mp | 0;
    const m = SINE[mi]! + (SINE[mi + 1]! - SINE[mi]!) * (mp - mi);
    let ph = pc + (idx * m) / (2 * Math.PI);
    ph -= Math.floor(ph);
    const cp = ph * SINE_SIZE;
    const ci = cp | 0;
    const c = SINE[ci]! + (SINE[ci + 1]! - SINE[ci]!) * (cp - ci);
    buf[i] = buf[i]! + c * amp * (i < attack ? i / attack : 1);
    pc += inc;
    if (pc >= 1) pc -= 1;
    pm += minc;
    if (pm >= 1) pm -= Math.floor(pm);
    idx *= idxDecay;
    amp *= i < off ? ampDecay : ampDecay * rel;
    if (amp < 1e-5) {
      end = i + 1;
      break;
    }
  }
  return end;
}

/* ------------------------------------------------------------------------------------------ */
/* Subtractive: band-limited oscillators into a state-variable filter, ADSR on amp and cutoff. */
/* ------------------------------------------------------------------------------------------ */

interface SubSpec {
  wave: 'saw' | 'square' | 'tri' | 'pulse';
  pulseWidth?: number;
  voices: number;
  detune: number;
  sub?: number;
  noise?: number;
  cutoff: number;
  keytrack: number;
  q: number;
  /** Filter envelope depth in octaves, with its attack and decay in seconds. */
  fenv: number;
  fa: number;
  fd: number;
  velCutoff: number;
  a: number;
  d: number;
  s: number;
  r: number;
  vibrato?: { rate: number; cents: number; delay: number };
  drive?: number;
  /** Band-pass formants (Hz) mixed in instead of the plain low-pass: voices and reeds. */
  formants?: readonly number[];
  /** Extra tail to render after the release starts, in seconds. */
  level: number;
}

const SUB: Partial<Record<InstrumentId, SubSpec>> = {
  pad: { wave: 'saw', voices: 3, detune: 14, cutoff: 900, keytrack: 0.3, q: 0.8, fenv: 1, fa: 0.8, fd: 2, velCutoff: 0.8, a: 0.6, d: 1.5, s: 0.8, r: 1.2, level: 0.5 },
  warmpad: { wave: 'tri', voices: 2, detune: 9, sub: 0, cutoff: 1200, keytrack: 0.2, q: 0.7, fenv: 0.4, fa: 1.5, fd: 2, velCutoff: 0.4, a: 1.2, d: 2, s: 0.85, r: 1.6, level: 0.9 },
  strings: { wave: 'saw', voices: 3, detune: 9, cutoff: 2200, keytrack: 0.4, q: 0.7, fenv: 0.5, fa: 0.3, fd: 1, velCutoff: 0.8, a: 0.25, d: 0.8, s: 0.85, r: 0.5, vibrato: { rate: 5.3, cents: 12, delay: 0.35 }, level: 0.45 },
  lowstrings: { wave: 'saw', voices: 2, detune: 7, cutoff: 1100, keytrack: 0.3, q: 0.7, fenv: 0.4, fa: 0.2, fd: 0.8, velCutoff: 0.7, a: 0.12, d: 0.6, s: 0.85, r: 0.35, vibrato: { rate: 5, cents: 8, delay: 0.4 }, level: 0.55 },
  choir: { wave: 'saw', voices: 3, detune: 12, cutoff: 3000, keytrack: 0, q: 0.7, fenv: 0, fa: 0.1, fd: 0.1, velCutoff: 0, a: 0.5, d: 1, s: 0.9, r: 0.9, vibrato: { rate: 4.8, cents: 14, delay: 0.3 }, formants: [730, 1090, 2440], level: 0.9 },
  brass: { wave: 'saw', voices: 2, detune: 6, cutoff: 500, keytrack: 0.5, q: 0.9, fenv: 2.3, fa: 0.09, fd: 0.5, velCutoff: 1, a: 0.05, d: 0.4, s: 0.8, r: 0.25, vibrato: { rate: 5.5, cents: 10, delay: 0.3 }, level: 0.5 },
  lead: { wave: 'saw', voices: 2, detune: 10, sub: 0, cutoff: 1800, keytrack: 0.5, q: 1.4, fenv: 1.3, fa: 0.005, fd: 0.35, velCutoff: 0.8, a: 0.01, d: 0.3, s: 0.75, r: 0.2, vibrato: { rate: 5.8, cents: 14, delay: 0.25 }, level: 0.55 },
  softlead: { wave: 'tri', voices: 2, detune: 6, cutoff: 2500, keytrack: 0.3, q: 0.7, fenv: 0.3, fa: 0.02, fd: 0.3, velCutoff: 0.5, a: 0.04, d: 0.4, s: 0.8, r: 0.35, vibrato: { rate: 5, cents: 10, delay: 0.3 }, level: 0.9 },
  pluck: { wave: 'saw', voices: 2, detune: 8, cutoff: 400, keytrack: 0.6, q: 1.6, fenv: 3.2, fa: 0.002, fd: 0.16, velCutoff: 1, a: 0.002, d: 0.25, s: 0.0, r: 0.12, level: 0.6 },
  sax: { wave: 'saw', voices: 1, detune: 0, noise: 0.06, cutoff: 1600, keytrack: 0.4, q: 0.8, fenv: 1, fa: 0.06, fd: 0.3, velCutoff: 1, a: 0.045, d: 0.3, s: 0.85, r: 0.12, vibrato: { rate: 5.2, cents: 18, delay: 0.2 }, drive: 1.6, formants: [600, 1400], level: 0.8 },
  square: { wave: 'pulse', pulseWidth: 0.25, voices: 1, detune: 0, cutoff: 9000, keytrack: 0, q: 0.6, fenv: 0, fa: 0.01, fd: 0.1, velCutoff: 0, a: 0.003, d: 0.15, s: 0.7, r: 0.04, vibrato: { rate: 6, cents: 15, delay: 0.2 }, level: 0.8 },
  triangle: { wave: 'tri', voices: 1, detune: 0, cutoff: 9000, keytrack: 0, q: 0.6, fenv: 0, fa: 0.01, fd: 0.1, velCutoff: 0, a: 0.003, d: 0.1, s: 0.95, r: 0.03, level: 0.9 },
  synthbass: { wave: 'saw', voices: 2, detune: 6, sub: 0.6, cutoff: 180, keytrack: 0.5, q: 1.5, fenv: 2.6, fa: 0.003, fd: 0.18, velCutoff: 1, a: 0.003, d: 0.3, s: 0.75, r: 0.07, drive: 1.3, level: 0.6 },
  subbass: { wave: 'tri', voices: 1, detune: 0, cutoff: 300, keytrack: 0.2, q: 0.6, fenv: 0.4, fa: 0.005, fd: 0.2, velCutoff: 0.3, a: 0.01, d: 0.5, s: 0.85, r: 0.12, level: 0.9 },
  bass808: { wave: 'tri', voices: 1, detune: 0, cutoff: 220, keytrack: 0.2, q: 0.6, fenv: 1, fa: 0.002, fd: 0.08, velCutoff: 0.3, a: 0.003, d: 1.4, s: 0.25, r: 0.25, drive: 1.8, level: 0.9 },
  ebass: { wave: 'saw', voices: 1, detune: 0, sub: 0.4, cutoff: 320, keytrack: 0.4, q: 0.9, fenv: 1.4, fa: 0.003, fd: 0.22, velCutoff: 0.9, a: 0.004, d: 0.6, s: 0.55, r: 0.08, level: 0.7 },
};

/** One sample of a band-limited saw (0), naive triangle (1) or band-limited pulse (2) at phase t. */
function oscillator(wave: number, t: number, dt: number, pw: number): number {
  if (wave === 1) return 4 * Math.abs(t - 0.5) - 1;
  if (wave === 0) {
    let y = 2 * t - 1;
    if (t < dt) {
      const u = t / dt;
      y -= u + u - u * u - 1;
    } else if (t > 1 - dt) {
      const u = (t - 1) / dt;
      y -= u * u + u + u + 1;
    }
    return y;
  }
  let y = t < pw ? 1 : -1;
  if (t < dt) {
    const u = t / dt;
    y += u + u - u * u - 1;
  } else if (t > 1 - dt) {
    const u = (t - 1) / dt;
    y += u * u + u + u + 1;
  }
  let t2 = t - pw;
  if (t2 < 0) t2 += 1;
  if (t2 < dt) {
    const u = t2 / dt;
    y -= u + u - u * u - 1;
  } else if (t2 > 1 - dt) {
    const u = (t2 - 1) / dt;
    y -= u * u + u + u + 1;
  }
  return y;
}

function subtractive(buf: Float32Array, ev: NoteEvent, spec: SubSpec, seed: number): number {
  const f0 = mtof(ev.midi);
  const vel = ev.vel;
  const off = Math.round(ev.dur * SAMPLE_RATE);
  const len = Math.min(buf.length, off + Math.round(spec.r * 4 * SAMPLE_RATE));
  const rng = createRng(seed);
  const voices = Math.min(3, spec.voices);
  const ratio = (v: number) => Math.pow(2, ((voices === 1 ? 0 : (v / (voices - 1)) * 2 - 1) * spec.detune) / 1200);
  const ratio0 = ratio(0);
  const ratio1 = ratio(1);
  const ratio2 = ratio(2);
  let ph0 = rng.next();
  let ph1 = rng.next();
  let ph2 = rng.next();
  const pw = spec.pulseWidth ?? 0.5;
  const formantFilters = spec.formants?.map((f) => {
    const svf = new Svf();
    svf.set(f, 6);
    return svf;
  });
  // Amp and filter envelopes.
  const aInc = 1 / Math.max(1, spec.a * SAMPLE_RATE);
  const dMul = t60(spec.d);
  const rMul = t60(spec.r);
  const sus = spec.s;
  let env = 0;
  let stage = 0; // 0 attack, 1 decay/sustain, 2 release
  const fenvDecay = t60(spec.fd);
  const faInc = 1 / Math.max(1, spec.fa * SAMPLE_RATE);
  let fenv = 0;
  let fRising = true;
  const baseCut = spec.cutoff * Math.pow(2, (spec.keytrack * (ev.midi - 60)) / 12 + spec.velCutoff * (vel - 0.7));
  const fenvAmt = spec.fenv;
  const k = 1 / Math.max(spec.q, 0.3);
  const vib = spec.vibrato;
  const level = spec.level * (0.35 + 0.65 * vel);
  const noise = spec.noise ?? 0;
  const sub = spec.sub ?? 0;
  const drive = spec.drive ?? 0;
  const driveNorm = drive > 0 ? 1 / softClip(drive) : 1;
  const wave = spec.wave === 'saw' ? 0 : spec.wave === 'tri' ? 1 : 2;
  const norm = 1 / Math.sqrt(voices);
  let noiseState = (seed | 1) >>> 0;
  let subPhase = 0;
  // Filter state in locals: this loop is the engine's hottest.
  let ic1 = 0;
  let ic2 = 0;
  let end = len;
  const BLOCK = 32;
  outer: for (let i0 = 0; i0 < len; i0 += BLOCK) {
    // Control rate: pitch (vibrato) and filter coefficients once per block.
    let pitch = 1;
    if (vib) {
      const t = i0 / SAMPLE_RATE;
      const depth = t < vib.delay ? 0 : Math.min(1, (t - vib.delay) / 0.4);
      if (depth > 0) pitch = Math.pow(2, (depth * vib.cents * Math.sin(2 * Math.PI * vib.rate * t)) / 1200);
    }
    const inc = (f0 * pitch) / SAMPLE_RATE;
    const d0 = inc * ratio0;
    const d1 = inc * ratio1;
    const d2 = inc * ratio2;
    const fc = Math.min(Math.max(baseCut * Math.pow(2, fenvAmt * fenv), 20), SAMPLE_RATE * 0.45);
    const g = Math.tan((Math.PI * fc) / SAMPLE_RATE);
    const a1 = 1 / (1 + g * (g + k));
    const a2 = g * a1;
    const a3 = g * a2;
    const i1 = Math.min(len, i0 + BLOCK);
    for (let i = i0; i < i1; i++) {
      // Up to three detuned oscillators; the saw, by far the most used, inline.
      let x: number;
      ph0 += d0;
      if (ph0 >= 1) ph0 -= 1;
      if (wave === 0) {
        x = 2 * ph0 - 1;
        if (ph0 < d0) {
          const u = ph0 / d0;
          x -= u + u - u * u - 1;
        } else if (ph0 > 1 - d0) {
          const u = (ph0 - 1) / d0;
          x -= u * u + u + u + 1;
        }
        if (voices > 1) {
          ph1 += d1;
          if (ph1 >= 1) ph1 -= 1;
          let y = 2 * ph1 - 1;
          if (ph1 < d1) {
            const u = ph1 / d1;
            y -= u + u - u * u - 1;
          } else if (ph1 > 1 - d1) {
            const u = (ph1 - 1) / d1;
            y -= u * u + u + u + 1;
          }
          x += y;
          if (voices > 2) {
            ph2 += d2;
            if (ph2 >= 1) ph2 -= 1;
            let z = 2 * ph2 - 1;
            if (ph2 < d2) {
              const u = ph2 / d2;
              z -= u + u - u * u - 1;
            } else if (ph2 > 1 - d2) {
              const u = (ph2 - 1) / d2;
              z -= u * u + u + u + 1;
            }
            x += z;
          }
        }
      } else {
        x = oscillator(wave, ph0, d0, pw);
        if (voices > 1) {
          ph1 += d1;
          if (ph1 >= 1) ph1 -= 1;
          x += oscillator(wave, ph1, d1, pw);
          if (voices > 2) {
            ph2 += d2;
            if (ph2 >= 1) ph2 -= 1;
            x += oscillator(wave, ph2, d2, pw);
          }
        }
      }
      x *= norm;
      if (sub > 0) {
        subPhase += inc * 0.5;
        if (subPhase >= 1) subPhase -= 1;
        x += sub * (subPhase < 0.5 ? 0.7 : -0.7);
      }
      if (noise > 0) {
        noiseState ^= noiseState << 13;
        noiseState ^= noiseState >>> 17;
        noiseState ^= noiseState << 5;
        x += noise * ((noiseState >>> 0) / 2147483648 - 1);
      }
      if (formantFilters) {
        let y = 0;
        for (let f = 0; f < formantFilters.length; f++) y += formantFilters[f]!.bandpass(x) * (f === 0 ? 1 : 0.6);
        x = y * 1.4;
      }
      // State-variable low-pass.
      const v3 = x - ic2;
      const v1 = a1 * ic1 + a2 * v3;
      const v2 = ic2 + a2 * ic1 + a3 * v3;
      ic1 = 2 * v1 - ic1;
      ic2 = 2 * v2 - ic2;
      let y = v2;
      if (drive > 0) y = softClip(y * drive) * driveNorm;
      // Envelopes.
      if (i === off) stage = 2;
      if (stage === 0) {
        env += aInc;
        if (env >= 1) {
          env = 1;
          stage = 1;
        }
      } else if (stage === 1) {
        env = sus + (env - sus) * dMul;
      } else {
        env *= rMul;
        if (env < 1e-4) {
          buf[i] = buf[i]! + y * env * level;
          end = i + 1;
          break outer;
        }
      }
      if (fRising) {
        fenv += faInc;
        if (fenv >= 1) {
          fenv = 1;
          fRising = false;
        }
      } else fenv *= fenvDecay;
      buf[i] = buf[i]! + y * env * level;
    }
  }
  return end;
}

/* ------------------------------------------------------------------------------------------ */
/* Karplus-Strong: plucked strings, with a fractional all-pass so high notes stay in tune.    */
/* ------------------------------------------------------------------------------------------ */

function plucked(buf: Float32Array, ev: NoteEvent, kind: 'guitar' | 'dguitar' | 'harp', seed: number): number {
  const f0 = mtof(ev.midi);
  const vel = ev.vel;
  const off = Math.round(ev.dur * SAMPLE_RATE);
  const ring = kind === 'harp' ? 3.5 : kind === 'dguitar' ? 2.5 : 2.2;
  const len = Math.min(buf.length, off + Math.round((kind === 'dguitar' ? 0.08 : 0.25) * SAMPLE_RATE));
  const period = SAMPLE_RATE / f0;
  const d = Math.max(2, Math.floor(period - 0.5));
  const frac = period - d - 0.5;
  const c = (1 - frac) / (1 + frac);
  const line = new Float32Array(d);
  const rng = createRng(seed);
  // Excitation: noise, darker for soft notes, and a pick-position comb.
  const bright = kind === 'harp' ? 0.35 : 0.25 + 0.6 * vel;
  let lp = 0;
  for (let i = 0; i < d; i++) {
    lp += (rng.next() * 2 - 1 - lp) * bright;
    line[i] = lp;
  }
  const pick = Math.max(1, Math.round(d * (kind === 'harp' ? 0.5 : 0.13)));
  for (let i = d - 1; i >= pick; i--) line[i] = line[i]! - line[i - pick]! * 0.8;
  const loss = Math.pow(10, -3 / (ring * f0));
  const damped = Math.pow(10, -3 / (0.06 * f0));
  let idx = 0;
  let apIn = 0;
  let apOut = 0;
  const amp = (kind === 'dguitar' ? 0.9 : 0.55) * (0.3 + 0.7 * vel);
  const drive = kind === 'dguitar' ? 6 : 0;
  const cab = new Svf();
  cab.set(kind === 'dguitar' ? 3200 : 7000, 0.7);
  for (let i = 0; i < len; i++) {
    const a = line[idx]!;
    const b = line[idx + 1 === d ? 0 : idx + 1]!;
    const g = i < off ? loss : damped;
    const avg = 0.5 * (a + b) * g;
    const y = c * avg + apIn - c * apOut;
    apIn = avg;
    apOut = y;
    line[idx] = y;
    idx = idx + 1 === d ? 0 : idx + 1;
    let out = a * amp;
    if (drive) out = softClip(out * drive) * 0.5;
    buf[i] = buf[i]! + cab.lowpass(out);
  }
  return len;
}

function flute(buf: Float32Array, ev: NoteEvent, seed: number): number {
  const f0 = mtof(ev.midi);
  const off = Math.round(ev.dur * SAMPLE_RATE);
  const len = Math.min(buf.length, off + Math.round(0.3 * SAMPLE_RATE));
  const rng = createRng(seed);
  const attack = 0.07 * SAMPLE_RATE;
  const rMul = t60(0.18);
  const amp = 0.3 * (0.45 + 0.55 * ev.vel);
  const breath = new Svf();
  breath.set(Math.min(f0 * 2, 8000), 2);
  let ph = 0;
  let env = 0;
  for (let i = 0; i < len; i++) {
    const t = i / SAMPLE_RATE;
    const vib = t > 0.25 ? 1 + 0.004 * Math.min(1, (t - 0.25) * 2) * Math.sin(2 * Math.PI * 4.8 * t) : 1;
    ph += (f0 * vib) / SAMPLE_RATE;
    if (ph >= 1) ph -= 1;
    const p = ph * SINE_SIZE;
    const k = p | 0;
    const s1 = SINE[k]! + (SINE[k + 1]! - SINE[k]!) * (p - k);
    let p2 = ph * 2;
    p2 -= Math.floor(p2);
    const q = p2 * SINE_SIZE;
    const k2 = q | 0;
    const s2 = SINE[k2]! + (SINE[k2 + 1]! - SINE[k2]!) * (q - k2);
    if (i < off) env = i < attack ? i / attack : 1;
    else env *= rMul;
    const n = breath.bandpass(rng.next() * 2 - 1);
    buf[i] = buf[i]! + (s1 + 0.22 * s2 + n * 0.15 * (i < attack ? 2.5 : 1)) * env * amp;
  }
  return len;
}

/* ------------------------------------------------------------------------------------------ */
/* Drums.                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Six detuned square waves, the classic metallic cymbal source. */
const METAL = [205.3, 304.4, 369.6, 522.7, 540.0, 800.0];

function drum(buf: Float32Array, ev: NoteEvent, id: DrumId, seed: number): number {
  const rng = createRng(seed);
  const vel = ev.vel;
  const sr = SAMPLE_RATE;
  let ns = (seed | 1) >>> 0;
  const noise = () => {
    ns ^= ns << 13;
    ns ^= ns >>> 17;
    ns ^= ns << 5;
    return (ns >>> 0) / 2147483648 - 1;
  };
  switch (id) {
    case 'kick':
    case 'kick808':
    case 'chipkick': {
      const long = id === 'kick808';
      const len = Math.min(buf.length, Math.round((long ? 1.1 : 0.45) * sr));
      const decay = t60(long ? 1.0 : 0.38);
      let amp = vel;
      let ph = 0;
      // Pitch falls exponentially from a thump to the fundamental (multiplicative, no exp per sample).
      const base = (long ? 48 : 50) / sr;
      let sweep = (id === 'chipkick' ? 300 : 120) / sr;
      const sweepDecay = Math.exp(-1 / ((id === 'chipkick' ? 0.02 : 0.035) * sr));
      const chip = id === 'chipkick';
      for (let i = 0; i < len; i++) {
        ph += base + sweep;
        sweep *= sweepDecay;
        if (ph >= 1) ph -= 1;
        let s: number;
        if (chip) s = 4 * Math.abs(ph - 0.5) - 1;
        else {
          const p = ph * SINE_SIZE;
          const k = p | 0;
          s = SINE[k]! + (SINE[k + 1]! - SINE[k]!) * (p - k);
        }
        if (long) s = softClip(s * 1.6);
        const click = i < 90 ? noise() * 0.35 * (1 - i / 90) : 0;
        buf[i] = buf[i]! + (s + click) * amp;
        amp *= decay;
      }
      return len;
    }
    case 'snare':
    case 'rim':
    case 'clap':
    case 'chipnoise': {
      const len = Math.min(buf.length, Math.round(0.35 * sr));
      const hp = new Svf();
      hp.set(id === 'clap' ? 1100 : id === 'rim' ? 1800 : 1500, id === 'clap' ? 1.4 : 0.8);
      const toneDecay = t60(id === 'rim' ? 0.05 : 0.12);
      const noiseDecay = t60(id === 'clap' ? 0.22 : id === 'rim' ? 0.04 : id === 'chipnoise' ? 0.12 : 0.2);
      let ta = id === 'clap' || id === 'chipnoise' ? 0 : vel * (id === 'rim' ? 0.7 : 0.55);
      let na = vel * (id === 'rim' ? 0.3 : 0.8);
      let ph = 0;
      let held = 0;
      const toneInc = (id === 'rim' ? 420 : 185) / sr;
      for (let i = 0; i < len; i++) {
        ph += toneInc;
        if (ph >= 1) ph -= 1;
        const tone = ta > 1e-5 ? sinCycles(ph) + 0.4 * sinCycles(ph * 1.78) : 0;
        let n: number;
        if (id === 'chipnoise') {
          if (i % 6 === 0) held = rng.next() < 0.5 ? -1 : 1;
          n = held * 0.6;
        } else n = hp.bandpass(noise()) * 2.2;
        // A clap is three quick bursts (several hands), then the room.
        let gate = 1;
        if (id === 'clap') {
          const t = i / sr;
          if (t < 0.0285) gate = Math.exp(-(t % 0.0095) / 0.003) * 1.5;
        }
        buf[i] = buf[i]! + tone * ta + n * na * gate;
        ta *= toneDecay;
        na *= noiseDecay;
      }
      return len;
    }
    case 'hat':
    case 'openhat':
    case 'ride':
    case 'crash': {
      const seconds = id === 'hat' ? 0.09 : id === 'openhat' ? 0.45 : id === 'ride' ? 1.4 : 2.2;
      const len = Math.min(buf.length, Math.round(seconds * 1.2 * sr));
      const hp = new Svf();
      hp.set(id === 'ride' ? 5000 : 7200, 0.7);
      const bp = new Svf();
      bp.set(id === 'ride' ? 3500 : 9000, 1);
      const decay = t60(seconds);
      let amp = vel * (id === 'ride' ? 0.7 : 1);
      const metal = id === 'crash' ? 0.35 : id === 'ride' ? 0.6 : 0.5;
      const mul = (id === 'ride' ? 2.2 : 1.4) / sr;
      const i0 = METAL[0]! * mul, i1 = METAL[1]! * mul, i2 = METAL[2]! * mul, i3 = METAL[3]! * mul, i4 = METAL[4]! * mul, i5 = METAL[5]! * mul;
      let q0 = rng.next(), q1 = rng.next(), q2 = rng.next(), q3 = rng.next(), q4 = rng.next(), q5 = rng.next();
      const ride = id === 'ride';
      const { a1: ha1, a2: ha2, a3: ha3, k: hk } = hp;
      let h1 = 0;
      let h2 = 0;
      let written = len;
      for (let i = 0; i < len; i++) {
        q0 += i0;
        if (q0 >= 1) q0 -= 1;
        q1 += i1;
        if (q1 >= 1) q1 -= 1;
        q2 += i2;
        if (q2 >= 1) q2 -= 1;
        q3 += i3;
        if (q3 >= 1) q3 -= 1;
        q4 += i4;
        if (q4 >= 1) q4 -= 1;
        q5 += i5;
        if (q5 >= 1) q5 -= 1;
        const m = (q0 < 0.5 ? 1 : -1) + (q1 < 0.5 ? 1 : -1) + (q2 < 0.5 ? 1 : -1) + (q3 < 0.5 ? 1 : -1) + (q4 < 0.5 ? 1 : -1) + (q5 < 0.5 ? 1 : -1);
        ns ^= ns << 13;
        ns ^= ns >>> 17;
        ns ^= ns << 5;
        const x = m * metal * 0.18 + ((ns >>> 0) / 2147483648 - 1) * (1 - metal);
        // High-pass (state-variable, inlined).
        const v3 = x - h2;
        const v1 = ha1 * h1 + ha2 * v3;
        const v2 = h2 + ha2 * h1 + ha3 * v3;
        h1 = 2 * v1 - h1;
        h2 = 2 * v2 - h2;
        let y = x - hk * v1 - v2;
        if (ride) y = y * 0.6 + bp.bandpass(x) * 0.8 + (i < 400 ? Math.sin((2 * Math.PI * 620 * i) / sr) * 0.15 * (1 - i / 400) : 0);
        buf[i] = buf[i]! + y * amp;
        amp *= decay;
        if (amp < 2e-4) {
          written = i + 1;
          break;
        }
      }
      attackRamp(buf, Math.min(written, id === 'crash' ? 40 : 8));
      return written;
    }
    case 'shaker':
    case 'brush': {
      const len = Math.min(buf.length, Math.round((id === 'brush' ? 0.28 : 0.12) * sr));
      const f = new Svf();
      f.set(id === 'brush' ? 3800 : 6500, 0.9);
      const attack = (id === 'brush' ? 0.035 : 0.012) * sr;
      const decay = t60(id === 'brush' ? 0.22 : 0.07);
      let amp = vel;
      for (let i = 0; i < len; i++) {
        const e = i < attack ? i / attack : 1;
        buf[i] = buf[i]! + f.bandpass(noise()) * amp * e * 1.6;
        if (i >= attack) amp *= decay;
      }
      return len;
    }
    case 'tom':
    case 'timpani': {
      const timp = id === 'timpani';
      const len = Math.min(buf.length, Math.round((timp ? 2.2 : 0.6) * sr));
      const f0 = mtof(ev.midi);
      const decay = t60(timp ? 1.8 : 0.45);
      let amp = vel;
      let ph = 0;
      let ph2 = 0;
      const lp = new Svf();
      lp.set(timp ? 700 : 1200, 0.8);
      let bend = timp ? 0.08 : 0.35;
      const bendDecay = Math.exp(-1 / (0.05 * sr));
      const inc = f0 / sr;
      const overtone = timp ? 0.35 : 0.2;
      for (let i = 0; i < len; i++) {
        ph += inc * (1 + bend);
        ph2 += inc * 1.5 * (1 + bend);
        bend *= bendDecay;
        if (ph >= 1) ph -= 1;
        if (ph2 >= 1) ph2 -= 1;
        const s = sinCycles(ph) + overtone * sinCycles(ph2);
        const hit = i < 600 ? lp.lowpass(noise()) * 1.2 * (1 - i / 600) : 0;
        buf[i] = buf[i]! + (s + hit) * amp;
        amp *= decay;
      }
      return len;
    }
  }
}

/** Renders one event into `buf` (zeroed, starting at index 0); returns the samples written. */
export function renderVoice(buf: Float32Array, ev: NoteEvent, seed: number): number {
  const id = ev.sound;
  if (isDrum(id)) return drum(buf, ev, id, seed);
  switch (id) {
    case 'piano':
      return piano(buf, ev, seed);
    case 'vibes':
    case 'marimba':
    case 'upright':
    case 'organ':
      return mallet(buf, ev, id);
    case 'epiano':
    case 'bell':
      return fm(buf, ev, id);
    case 'guitar':
    case 'dguitar':
    case 'harp':
      return plucked(buf, ev, id, seed);
    case 'flute':
      return flute(buf, ev, seed);
    default: {
      const spec = SUB[id];
      if (!spec) return 0;
      return subtractive(buf, ev, spec, seed);
    }
  }
}
