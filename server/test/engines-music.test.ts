import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  BUILTIN_MUSIC_MODEL,
  composeMusic,
  createBuiltinMusicEngine,
  renderMusicPcm,
  renderPlanPcm,
  resolveFfmpegPath,
  type MusicPlan,
} from '../src/engines/music/builtin/index.ts';
import { EngineError, type GenerationContext } from '../src/engines/types.ts';

const FFMPEG = resolveFfmpegPath();
const FFPROBE = process.env.FFPROBE_PATH?.trim() || (process.env.FFMPEG_PATH?.trim() ? join(dirname(FFMPEG), 'ffprobe') : 'ffprobe');
const hasFfmpeg = spawnSync(FFMPEG, ['-version']).status === 0 && spawnSync(FFPROBE, ['-version']).status === 0;
const SR = 44100;
/** Rendering is CPU work: generous timeouts keep a busy CI machine from failing these. */
const SLOW = 120_000;

const ctx = (signal = new AbortController().signal, onProgress: GenerationContext['onProgress'] = () => {}): GenerationContext => ({ signal, onProgress });
const sha = (pcm: Float32Array) => createHash('sha256').update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex');

/** Mono mix of interleaved stereo. */
function mono(pcm: Float32Array): Float32Array {
  const out = new Float32Array(pcm.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (pcm[2 * i]! + pcm[2 * i + 1]!) / 2;
  return out;
}

function rms(x: Float32Array, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / Math.max(1, to - from));
}

/** In-place radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const c = Math.cos(ang * k);
        const s = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const vr = re[b]! * c - im[b]! * s;
        const vi = re[b]! * s + im[b]! * c;
        re[b] = re[a]! - vr;
        im[b] = im[a]! - vi;
        re[a] = re[a]! + vr;
        im[a] = im[a]! + vi;
      }
    }
  }
}

/** Energy-weighted mean frequency (Hz) over Hann-windowed frames, or the share of energy above `split` Hz. */
function spectralCentroid(x: Float32Array, from = 0, to = x.length, split?: number): number {
  const N = 4096;
  const re = new Float64Array(N);
  const im = new Float64Array(N);
  let num = 0;
  let den = 0;
  for (let off = from; off + N <= to; off += N) {
    for (let i = 0; i < N; i++) {
      re[i] = x[off + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / N));
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 1; k < N / 2; k++) {
      const p = re[k]! * re[k]! + im[k]! * im[k]!;
      const f = (k * SR) / N;
      num += split === undefined ? p * f : f >= split ? p : 0;
      den += p;
    }
  }
  return den > 0 ? num / den : 0;
}

describe('built-in music engine: composition', () => {
  it('describes itself honestly', () => {
    expect(BUILTIN_MUSIC_MODEL.id).toBe('atelier-procedural-music-1');
    expect(BUILTIN_MUSIC_MODEL.kind).toBe('music');
    expect(BUILTIN_MUSIC_MODEL.description).toMatch(/not a neural model/);
    expect(BUILTIN_MUSIC_MODEL.parameters.durationSec).toMatchObject({ default: 30, max: 120 });
  });

  it('takes tempo, style and instruments from the words', () => {
    const calm = composeMusic({ prompt: 'calm piano', seed: 1, durationSec: 30 });
    const energetic = composeMusic({ prompt: 'energetic electronic', seed: 1, durationSec: 30 });
    expect(energetic.bpm).toBeGreaterThan(calm.bpm + 30);
    expect(calm.bpm).toBeLessThan(80);
    expect(calm.style).toBe('piano');
    expect(calm.instruments.lead).toBe('piano');
    expect(calm.instruments.kit).toBeNull();
    expect(energetic.style).toBe('electronic');
    expect(energetic.instruments.bass).toBe('synthbass');
    expect(energetic.instruments.kit).toBe('four');
    const sounds = new Set(energetic.events.map((e) => e.sound));
    for (const s of ['kick', 'synthbass', 'clap']) expect(sounds.has(s as never)).toBe(true);
    // Calm means soft: the piano plays quieter than the synths do.
    const meanVel = (p: MusicPlan) => p.events.reduce((a, e) => a + e.vel, 0) / p.events.length;
    expect(meanVel(calm)).toBeLessThan(meanVel(energetic));
  });

  it('picks the mode from the mood', () => {
    for (const seed of [1, 2, 3]) {
      expect(['minor', 'dorian', 'phrygian', 'harmonicMinor']).toContain(composeMusic({ prompt: 'sad', seed, durationSec: 20 }).mode);
      expect(['major', 'lydian', 'mixolydian']).toContain(composeMusic({ prompt: 'happy sunny morning', seed, durationSec: 20 }).mode);
    }
    const explicit = composeMusic({ prompt: 'a waltz in D minor at 90 bpm', seed: 5, durationSec: 30 });
    expect(explicit).toMatchObject({ tonic: 2, mode: 'minor', bpm: 90, beatsPerBar: 3 });
  });

  it('knows the common genres', () => {
    const plan = (prompt: string) => composeMusic({ prompt, seed: 7, durationSec: 30 });
    expect(plan('epic orchestral').style).toBe('orchestral');
    expect(plan('epic orchestral').instruments.leadChorus).toBe('brass');
    expect(plan('lofi beats to study to').style).toBe('lofi');
    expect(plan('lofi beats to study to').textures.length + (plan('lofi beats to study to').lofi ? 1 : 0)).toBeGreaterThan(0);
    const jazz = plan('late night jazz');
    expect(jazz.style).toBe('jazz');
    expect(jazz.swing).toBeGreaterThan(0.5);
    expect(jazz.instruments.bassStyle).toBe('walking');
    const ambient = plan('ambient space drone');
    expect(ambient.style).toBe('ambient');
    expect(ambient.instruments.kit).toBeNull();
    expect(ambient.reverb.wet).toBeGreaterThan(plan('energetic electronic').reverb.wet);
    expect(plan('acoustic guitar folk song with flute').instruments).toMatchObject({ chords: 'guitar', lead: 'flute' });
    expect(plan('8-bit retro game music').style).toBe('chiptune');
    expect(plan('calm piano, no drums, with strings').instruments).toMatchObject({ kit: null, pad: 'strings' });
    // Other languages.
    expect(plan('穏やかなピアノ').style).toBe('piano');
    expect(plan('musique électronique énergique').style).toBe('electronic');
  });

  it('is deterministic, and unknown words still change the piece', () => {
    const a = composeMusic({ prompt: 'zebra umbrella', seed: 3, durationSec: 25 });
    const b = composeMusic({ prompt: 'zebra umbrella', seed: 3, durationSec: 25 });
    expect(b).toEqual(a);
    const signature = (p: MusicPlan) => JSON.stringify([p.bpm, p.tonic, p.mode, p.style, p.events.slice(0, 40).map((e) => [e.midi, e.time.toFixed(3)])]);
    const others = ['quantum marmalade', 'velvet lighthouse', 'cardboard symphony of ants'].map((prompt) => signature(composeMusic({ prompt, seed: 3, durationSec: 25 })));
    for (const o of others) expect(o).not.toBe(signature(a));
    expect(signature(composeMusic({ prompt: 'zebra umbrella', seed: 4, durationSec: 25 }))).not.toBe(signature(a));
  });

  it('has a form: intro, sections with a closing chorus, outro and a final chord inside the duration', () => {
    for (const durationSec of [30, 60, 120]) {
      const plan = composeMusic({ prompt: 'uplifting pop', seed: 11, durationSec });
      const names = plan.sections.map((s) => s.name);
      expect(names[0]).toBe('intro');
      expect(names[names.length - 1]).toBe('outro');
      expect(names[names.length - 2]).toBe('chorus');
      expect(names).toContain('verse');
      if (durationSec >= 60) expect(names).toContain('bridge');
      expect(plan.finalChordSec).toBeLessThan(durationSec);
      expect(durationSec - plan.finalChordSec).toBeGreaterThan(1);
      expect(plan.events.every((e) => e.time >= 0 && e.time < durationSec)).toBe(true);
      // Chords change, and the melody repeats its material (a motif, not noise).
      expect(new Set(plan.sections.flatMap((s) => s.chords)).size).toBeGreaterThan(2);
    }
    const tiny = composeMusic({ prompt: 'calm piano', seed: 1, durationSec: 3 });
    expect(tiny.events.length).toBeGreaterThan(0);
    expect(tiny.finalChordSec).toBeLessThan(3);
  });
});

describe('built-in music engine: rendering', () => {
  it(
    'renders the same PCM for the same seed, different PCM for another',
    async () => {
      const req = { prompt: 'lofi hip hop with rain', seed: 42, durationSec: 8 };
      const a = await renderMusicPcm(req);
      const b = await renderMusicPcm(req);
      expect(a.pcm.length).toBe(8 * SR * 2);
      expect(sha(b.pcm)).toBe(sha(a.pcm));
      const c = await renderMusicPcm({ ...req, seed: 43 });
      expect(sha(c.pcm)).not.toBe(sha(a.pcm));
      let peak = 0;
      for (const v of a.pcm) peak = Math.max(peak, Math.abs(v));
      expect(peak).toBeGreaterThan(0.1);
      expect(peak).toBeLessThanOrEqual(1);
      expect(a.pcm.every((v) => Number.isFinite(v))).toBe(true);
    },
    SLOW,
  );

  it(
    'sounds different: a decaying, darker piano against a sustained, brighter saw synth',
    async () => {
      // The same melody line through two instruments, nothing else.
      const base = composeMusic({ prompt: 'calm piano', seed: 2, durationSec: 6 });
      const note = (sound: 'piano' | 'lead') => ({ time: 0.2, dur: 4, midi: 64, vel: 0.7, sound });
      const only = (sound: 'piano' | 'lead'): MusicPlan => ({ ...base, events: [note(sound)], textures: [], lofi: false, reverb: { ...base.reverb, wet: 0 }, energy: 0.5, brightness: 0 });
      const piano = mono((await renderPlanPcm(only('piano'), { master: false })).pcm);
      const synth = mono((await renderPlanPcm(only('lead'), { master: false })).pcm);
      const early = [Math.round(0.3 * SR), Math.round(1.0 * SR)] as const;
      const late = [Math.round(3.2 * SR), Math.round(4.0 * SR)] as const;
      // Envelope: the piano string dies away, the synth holds its note.
      expect(rms(piano, ...late) / rms(piano, ...early)).toBeLessThan(0.5);
      expect(rms(synth, ...late) / rms(synth, ...early)).toBeGreaterThan(0.6);
      // Spectrum: the saw is far richer in upper harmonics.
      expect(spectralCentroid(synth, ...early)).toBeGreaterThan(spectralCentroid(piano, ...early) * 1.5);

      // Whole pieces: "calm piano" is quieter and darker than "energetic electronic".
      const calm = await renderMusicPcm({ prompt: 'calm piano', seed: 9, durationSec: 10 });
      const loud = await renderMusicPcm({ prompt: 'energetic electronic', seed: 9, durationSec: 10 });
      const calmMono = mono(calm.pcm);
      const loudMono = mono(loud.pcm);
      expect(rms(loudMono)).toBeGreaterThan(rms(calmMono) * 1.5);
      // Hats, claps and saw harmonics put far more energy above 2 kHz.
      const highShare = (x: Float32Array) => spectralCentroid(x, 0, x.length, 2000);
      expect(highShare(loudMono)).toBeGreaterThan(highShare(calmMono) * 2);
    },
    SLOW,
  );

  it(
    'yields to the event loop while rendering and stops when aborted',
    async () => {
      const controller = new AbortController();
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const started = performance.now();
      const progress: number[] = [];
      const run = renderMusicPcm(
        { prompt: 'epic orchestral battle', seed: 1, durationSec: 60 },
        {
          signal: controller.signal,
          onProgress: (f) => {
            progress.push(f);
            if (f > 0.1) controller.abort();
          },
        },
      );
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(0);
      expect(progress.length).toBeGreaterThan(0);
      expect(performance.now() - started).toBeLessThan(30_000);
    },
    SLOW,
  );
});

describe.skipIf(!hasFfmpeg)('built-in music engine: MP3 through ffmpeg', () => {
  it(
    'produces a valid MP3 of the requested duration, reporting progress up to 1',
    async () => {
      const engine = createBuiltinMusicEngine();
      const progress: { f: number; eta: number | undefined }[] = [];
      const out = await engine.generate(
        { model: BUILTIN_MUSIC_MODEL.id, prompt: 'calm piano', seed: 7, durationSec: 12 },
        ctx(undefined, (f, eta) => progress.push({ f, eta })),
      );
      expect(out).toMatchObject({ contentType: 'audio/mpeg', extension: 'mp3', durationMs: 12_000 });
      const head = out.data.subarray(0, 3);
      expect(Buffer.from(head).toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)).toBe(true);

      const dir = mkdtempSync(join(tmpdir(), 'atelier-music-'));
      try {
        const file = join(dir, 'out.mp3');
        writeFileSync(file, out.data);
        const probe = spawnSync(FFPROBE, ['-v', 'error', '-show_entries', 'format=format_name,duration:stream=codec_name,sample_rate,channels', '-of', 'json', file], { encoding: 'utf8' });
        expect(probe.status).toBe(0);
        const info = JSON.parse(probe.stdout) as { format: { format_name: string; duration: string }; streams: { codec_name: string; sample_rate: string; channels: number }[] };
        expect(info.format.format_name).toBe('mp3');
        expect(info.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', channels: 2 });
        expect(Math.abs(Number(info.format.duration) - 12)).toBeLessThan(0.15);
        // It decodes cleanly from start to end.
        const decode = spawnSync(FFMPEG, ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
        expect(decode.status).toBe(0);
        expect(decode.stderr.trim()).toBe('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      const fractions = progress.map((p) => p.f);
      expect(fractions[fractions.length - 1]).toBe(1);
      for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
      expect(progress.some((p) => typeof p.eta === 'number' && p.eta >= 0)).toBe(true);
    },
    SLOW,
  );

  it(
    'aborts: before starting, and in the middle of a long render',
    async () => {
      const engine = createBuiltinMusicEngine();
      const early = new AbortController();
      early.abort();
      await expect(engine.generate({ model: 'm', prompt: 'jazz', seed: 1, durationSec: 30 }, ctx(early.signal))).rejects.toMatchObject({ name: 'AbortError' });

      const controller = new AbortController();
      const started = performance.now();
      const run = engine.generate(
        { model: 'm', prompt: 'energetic electronic', seed: 1, durationSec: 120 },
        ctx(controller.signal, (f) => {
          if (f > 0.05) controller.abort();
        }),
      );
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(performance.now() - started).toBeLessThan(60_000);
    },
    SLOW,
  );
});

describe('built-in music engine: errors', () => {
  it('reports a missing ffmpeg clearly, before rendering', async () => {
    const engine = createBuiltinMusicEngine({ ffmpegPath: join(tmpdir(), 'no-such-dir', 'ffmpeg') });
    const started = performance.now();
    const err = await engine.generate({ model: 'm', prompt: 'calm piano', seed: 1, durationSec: 30 }, ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'SYSTEM_ERROR', transient: false });
    expect((err as Error).message).toMatch(/ffmpeg.*FFMPEG_PATH/s);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('resolves ffmpeg from FFMPEG_PATH, else the PATH', () => {
    expect(resolveFfmpegPath({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' })).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(resolveFfmpegPath({})).toBe('ffmpeg');
  });

  it('refuses durations outside its limits', async () => {
    const engine = createBuiltinMusicEngine();
    for (const durationSec of [0, -5, 121, Number.NaN]) {
      await expect(engine.generate({ model: 'm', prompt: 'x', seed: 1, durationSec }, ctx())).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});
