/**
 * Renders a composed plan to 44.1 kHz stereo Float32 PCM: every note through its instrument,
 * panned into a dry bus and a reverb send, optional textures (vinyl, rain, sea), side-chain
 * pumping for electronic styles, an FDN reverb, then a master stage (tone tilt, DC filter, fades,
 * loudness and a soft limiter).
 *
 * The work is done in slices that yield to the event loop, so a long render neither blocks the
 * server nor ignores its abort signal.
 */
import { composeMusic, type ComposeRequest, type MusicPlan } from './compose.ts';
import { applyReverb, createRng, hash32, SAMPLE_RATE, Svf, type ReverbState } from './dsp.ts';
import { MIX, renderVoice, tailSeconds } from './instruments.ts';

export interface RenderOptions {
  signal?: AbortSignal;
  /** Fraction of the render done, in [0, 1]. */
  onProgress?: (fraction: number) => void;
  /** How long a slice of work may run before yielding, in ms. */
  sliceMs?: number;
  /** false skips the master stage (levels, fades, limiter): for analysis only. */
  master?: boolean;
}

export interface RenderedMusic {
  /** Interleaved stereo, left first. */
  pcm: Float32Array;
  sampleRate: number;
  channels: 2;
  plan: MusicPlan;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Composes the request and renders it. Same request → bit-identical PCM. */
export async function renderMusicPcm(request: ComposeRequest, options: RenderOptions = {}): Promise<RenderedMusic> {
  options.signal?.throwIfAborted();
  return renderPlanPcm(composeMusic(request), { ...options, seed: hash32(`${request.seed}|${request.prompt}`) });
}

/** Renders an already composed (possibly edited) plan; `seed` varies the noise of the sounds. */
export async function renderPlanPcm(plan: MusicPlan, options: RenderOptions & { seed?: number } = {}): Promise<RenderedMusic> {
  const { signal, onProgress } = options;
  const sliceMs = options.sliceMs ?? 15;
  signal?.throwIfAborted();
  const n = Math.max(1, Math.round(plan.durationSec * SAMPLE_RATE));
  // The dry mix, interleaved stereo (it becomes the output in place), and the mono reverb send.
  const mix = new Float32Array(n * 2);
  const send = new Float32Array(n);

  let sliceStart = performance.now();
  const checkpoint = async (fraction: number) => {
    if (performance.now() - sliceStart < sliceMs) return;
    onProgress?.(Math.min(1, Math.max(0, fraction)));
    await yieldToLoop();
    signal?.throwIfAborted();
    sliceStart = performance.now();
  };

  // Side-chain: a gain curve that dips after every kick.
  const kicks = plan.events.filter((e) => e.sound === 'kick' || e.sound === 'kick808');
  const pump = plan.style === 'electronic' && kicks.length > 0 ? new Float32Array(n).fill(1) : null;
  if (pump) {
    const depth = 0.55;
    const span = Math.round(0.3 * SAMPLE_RATE);
    for (const k of kicks) {
      const s = Math.round(k.time * SAMPLE_RATE);
      for (let i = 0; i < span && s + i < n; i++) {
        const t = i / SAMPLE_RATE;
        const g = 1 - depth * (t < 0.004 ? t / 0.004 : Math.exp(-(t - 0.004) / 0.075));
        if (g < pump[s + i]!) pump[s + i] = g;
      }
    }
  }

  // Notes. Work is estimated by each note's audible length, for progress.
  const seedBase = options.seed ?? 0;
  let maxDur = 0;
  let totalWork = 0;
  const lengths = plan.events.map((e) => {
    const len = Math.round((e.dur + tailSeconds(e.sound)) * SAMPLE_RATE) + 64;
    maxDur = Math.max(maxDur, e.dur);
    totalWork += len;
    return len;
  });
  // Room for the longest note plus any sound's ring-out (no voice ever needs more than 4 s).
  const scratch = new Float32Array(Math.min(n, Math.round((maxDur + 4) * SAMPLE_RATE)) + 1);
  let done = 0;
  for (let idx = 0; idx < plan.events.length; idx++) {
    const ev = plan.events[idx]!;
    const start = Math.round(ev.time * SAMPLE_RATE);
    done += lengths[idx]!;
    if (start >= n) continue;
    const room = Math.min(scratch.length, n - start);
    const len = renderVoice(scratch.subarray(0, room), ev, (seedBase + Math.imul(idx + 1, 0x9e3779b9)) >>> 0);
    const settings = MIX[ev.sound];
    const pan = Math.min(1, Math.max(-1, settings.pan + (ev.pan ?? 0)));
    const theta = ((pan + 1) * Math.PI) / 4;
    const gl = Math.cos(theta) * Math.SQRT2 * settings.gain;
    const gr = Math.sin(theta) * Math.SQRT2 * settings.gain;
    const gs = settings.gain * settings.send;
    const end = Math.min(n, start + len);
    if (pump && settings.duck) {
      for (let i = start, j = 0; i < end; i++, j++) {
        const v = scratch[j]! * pump[i]!;
        mix[2 * i] = mix[2 * i]! + v * gl;
        mix[2 * i + 1] = mix[2 * i + 1]! + v * gr;
        send[i] = send[i]! + v * gs;
      }
    } else {
      for (let i = start, j = 0; i < end; i++, j++) {
        const v = scratch[j]!;
        mix[2 * i] = mix[2 * i]! + v * gl;
        mix[2 * i + 1] = mix[2 * i + 1]! + v * gr;
        send[i] = send[i]! + v * gs;
      }
    }
    scratch.fill(0, 0, len);
    await checkpoint((0.78 * done) / Math.max(1, totalWork));
  }

  addTextures(plan, mix, send, hash32('texture', seedBase));
  await checkpoint(0.8);

  // Reverb, in slices.
  const reverb = { seconds: plan.reverb.seconds, size: plan.reverb.size, damping: plan.reverb.damping, wet: plan.reverb.wet * 1.6, preDelayMs: 18 };
  let state: ReverbState | undefined;
  const slice = SAMPLE_RATE;
  for (let from = 0; from < n; from += slice) {
    state = applyReverb(send, mix, reverb, from, Math.min(n, from + slice), state);
    await checkpoint(0.8 + (0.15 * Math.min(n, from + slice)) / n);
  }

  if (options.master !== false) master(plan, mix);
  const pcm = mix;
  onProgress?.(1);
  return { pcm, sampleRate: SAMPLE_RATE, channels: 2, plan };
}

/** Vinyl crackle and hiss, rain, or a slow sea swell, quietly under the music. */
function addTextures(plan: MusicPlan, mix: Float32Array, send: Float32Array, seed: number): void {
  const textures = new Set(plan.textures);
  if (plan.lofi) textures.add('vinyl');
  if (textures.size === 0) return;
  const n = send.length;
  const rng = createRng(seed);
  if (textures.has('vinyl')) {
    const hiss = new Svf();
    hiss.set(5000, 0.7);
    let pop = 0;
    for (let i = 0; i < n; i++) {
      let x = hiss.bandpass(rng.next() * 2 - 1) * 0.006;
      if (rng.next() < 4 / SAMPLE_RATE) pop = (rng.next() * 2 - 1) * 0.12;
      x += pop;
      pop *= 0.55;
      mix[2 * i] = mix[2 * i]! + x;
      mix[2 * i + 1] = mix[2 * i + 1]! + x * 0.9;
    }
  }
  if (textures.has('rain') || textures.has('ocean')) {
    const rain = textures.has('rain');
    const sea = textures.has('ocean');
    const fl = new Svf();
    const fr = new Svf();
    fl.set(rain ? 3500 : 900, 0.6);
    fr.set(rain ? 3500 : 900, 0.6);
    const drop = new Svf();
    drop.set(2500, 4);
    let dropEnv = 0;
    for (let i = 0; i < n; i++) {
      const t = i / SAMPLE_RATE;
      const swell = sea ? 0.5 + 0.5 * Math.sin((2 * Math.PI * t) / 7.5) ** 2 : 1;
      const amp = (rain ? 0.012 : 0) + (sea ? 0.03 * swell : 0);
      let l = fl.lowpass(rng.next() * 2 - 1) * amp;
      let r = fr.lowpass(rng.next() * 2 - 1) * amp;
      if (rain) {
        if (rng.next() < 14 / SAMPLE_RATE) dropEnv = 0.03 + 0.05 * rng.next();
        const d = drop.bandpass((rng.next() * 2 - 1) * dropEnv);
        dropEnv *= 0.993;
        l += d;
        r += d * 0.6;
      }
      const fade = Math.min(1, t / 2);
      mix[2 * i] = mix[2 * i]! + l * fade;
      mix[2 * i + 1] = mix[2 * i + 1]! + r * fade;
      send[i] = send[i]! + (l + r) * 0.2 * fade;
    }
  }
}

/** Tone tilt, DC filter, fades, loudness and a soft limiter, in place on interleaved stereo. */
function master(plan: MusicPlan, mix: Float32Array): void {
  const n = mix.length / 2;
  // A gentle low-pass for lo-fi and dark prompts, a touch of air for bright ones.
  const tilt = plan.lofi ? -0.55 : Math.max(-0.5, Math.min(0.25, plan.brightness * 0.4));
  const lpCoef = Math.exp((-2 * Math.PI * (plan.lofi ? 3200 : 2200)) / SAMPLE_RATE);
  const dcCoef = Math.exp((-2 * Math.PI * 25) / SAMPLE_RATE);
  for (let c = 0; c < 2; c++) {
    let lp = 0;
    let dcIn = 0;
    let dcOut = 0;
    for (let i = c; i < 2 * n; i += 2) {
      let x = mix[i]!;
      lp = x + (lp - x) * lpCoef;
      x = tilt < 0 ? x + (lp - x) * -tilt : x + (x - lp) * tilt;
      const y = x - dcIn + dcCoef * dcOut;
      dcIn = x;
      dcOut = y;
      mix[i] = y;
    }
  }
  // Fades: a few ms in, and out over the end of the final chord.
  const fadeIn = Math.min(n, Math.round(0.005 * SAMPLE_RATE));
  for (let i = 0; i < fadeIn; i++) {
    mix[2 * i] = mix[2 * i]! * (i / fadeIn);
    mix[2 * i + 1] = mix[2 * i + 1]! * (i / fadeIn);
  }
  const tail = plan.durationSec - plan.finalChordSec;
  const fadeOut = Math.min(n, Math.round(Math.min(3, Math.max(0.6, tail * 0.75)) * SAMPLE_RATE));
  for (let i = 0; i < fadeOut; i++) {
    const k = n - fadeOut + i;
    const g = 0.5 + 0.5 * Math.cos((Math.PI * i) / fadeOut);
    mix[2 * k] = mix[2 * k]! * g;
    mix[2 * k + 1] = mix[2 * k + 1]! * g;
  }
  // Loudness: calm pieces sit lower than energetic ones, as they would on a record.
  let sum = 0;
  let peak = 0;
  const bodyEnd = Math.max(1, Math.min(n, Math.round(plan.finalChordSec * SAMPLE_RATE)));
  for (let i = 0; i < 2 * n; i++) {
    const v = mix[i]!;
    if (i < 2 * bodyEnd) sum += v * v;
    const a = v < 0 ? -v : v;
    if (a > peak) peak = a;
  }
  const rms = Math.sqrt(sum / (2 * bodyEnd)) || 1e-9;
  const targetDb = -21 + 7 * plan.energy;
  let gain = Math.pow(10, targetDb / 20) / rms;
  if (peak * gain > 1.5) gain = 1.5 / peak;
  if (!Number.isFinite(gain) || peak === 0) gain = 1;
  // Soft knee above 0.8: transients are rounded off, never clipped.
  const knee = 0.8;
  const room = 0.985 - knee;
  for (let i = 0; i < 2 * n; i++) {
    let x = mix[i]! * gain;
    const a = x < 0 ? -x : x;
    if (a > knee) x = (x < 0 ? -1 : 1) * (knee + room * Math.tanh((a - knee) / room));
    mix[i] = x;
  }
}
