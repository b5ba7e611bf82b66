import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinVideoEngine, proceduralVideoModel, resolveFfmpeg } from '../src/engines/video/builtin/index.ts';
import { EngineError, VIDEO_STYLES, type GenerationContext, type OutputFile, type VideoRequest, type VideoStyle } from '../src/engines/types.ts';

// The project's bootstrap installs Debian's ffmpeg (which brings ffprobe) for `npm test`.
const ffprobe = process.env.FFPROBE_PATH ?? 'ffprobe';
const engine = createBuiltinVideoEngine();
const dir = mkdtempSync(join(tmpdir(), 'atelier-video-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function context(signal = new AbortController().signal): GenerationContext & { progress: [number, number | undefined][] } {
  const progress: [number, number | undefined][] = [];
  return { signal, progress, onProgress: (f, eta) => progress.push([f, eta]) };
}

function request(over: Partial<VideoRequest> = {}): VideoRequest {
  return {
    model: proceduralVideoModel.id,
    prompt: 'sunset over the mountains by a lake',
    style: 'cinematic',
    durationSec: 1,
    width: 320,
    height: 180,
    fps: 12,
    seed: 1,
    ...over,
  };
}

const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
let fileNo = 0;

function save(file: OutputFile): string {
  const path = join(dir, `v${fileNo++}.mp4`);
  writeFileSync(path, file.data);
  return path;
}

interface Probe {
  codec_name: string;
  pix_fmt: string;
  width: number;
  height: number;
  duration: string;
  nb_frames: string;
}

function probe(path: string): Probe {
  const out = execFileSync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,pix_fmt,width,height,duration,nb_frames', '-of', 'json', path], {
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { streams: Probe[] }).streams[0]!;
}

/** One decoded frame (time in seconds) as RGB bytes. */
function frameAt(path: string, sec: number, width: number, height: number): Uint8Array {
  const r = spawnSync(resolveFfmpeg(), ['-v', 'error', '-ss', String(sec), '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(r.status).toBe(0);
  expect(r.stdout.length).toBe(width * height * 3);
  return new Uint8Array(r.stdout);
}

function meanAbs(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number));
  return sum / a.length;
}

function rowsMean(px: Uint8Array, width: number, from: number, to: number): number {
  let sum = 0;
  for (let i = from * width * 3; i < to * width * 3; i++) sum += px[i] as number;
  return sum / ((to - from) * width * 3);
}

function atomOffset(data: Uint8Array, name: string): number {
  // Top-level MP4 boxes: 32-bit size, 4-character type.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at + 8 <= data.length) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...data.subarray(at + 4, at + 8));
    if (type === name) return at;
    if (size < 8) return -1;
    at += size;
  }
  return -1;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

// Generous time limits: the machine is shared, and a loaded one is slow, not wrong.
describe('built-in video engine', { timeout: 60_000 }, () => {
  it('describes itself honestly as a procedural model', () => {
    expect(engine.kind).toBe('video');
    expect(proceduralVideoModel.id).toBe('atelier-procedural-video-1');
    expect(proceduralVideoModel.description).toMatch(/not a neural model/i);
    expect(proceduralVideoModel.limits.style).toEqual(VIDEO_STYLES);
  });

  it('writes an H.264 yuv420p MP4 with the index first, of the requested size, length and frame rate', async () => {
    const ctx = context();
    const file = await engine.generate(request({ width: 426, height: 240, durationSec: 1.5, fps: 16 }), ctx);
    expect(file.contentType).toBe('video/mp4');
    expect(file.extension).toBe('mp4');
    expect([file.width, file.height, file.durationMs]).toEqual([426, 240, 1500]);
    const p = probe(save(file));
    expect(p.codec_name).toBe('h264');
    expect(p.pix_fmt).toBe('yuv420p');
    expect([p.width, p.height]).toEqual([426, 240]);
    expect(Number(p.duration)).toBeCloseTo(1.5, 1);
    expect(Number(p.nb_frames)).toBe(24);
    // +faststart: the moov box comes before the media data, so browsers start playing at once.
    const moov = atomOffset(file.data, 'moov');
    const mdat = atomOffset(file.data, 'mdat');
    expect(moov).toBeGreaterThan(0);
    expect(moov).toBeLessThan(mdat);

    const fractions = ctx.progress.map(([f]) => f);
    expect(fractions[0]).toBe(0);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(ctx.progress.some(([f, eta]) => f > 0 && f < 1 && typeof eta === 'number' && eta >= 0)).toBe(true);
  });

  it('is deterministic: the same request gives the same bytes; another seed or prompt does not', async () => {
    const a = await engine.generate(request(), context());
    const b = await engine.generate(request(), context());
    const c = await engine.generate(request({ seed: 2 }), context());
    const d = await engine.generate(request({ prompt: 'neon city at night' }), context());
    expect(sha(a.data)).toBe(sha(b.data));
    expect(sha(a.data)).not.toBe(sha(c.data));
    expect(sha(a.data)).not.toBe(sha(d.data));
  });

  it('films the five styles visibly differently', async () => {
    const W = 320;
    const H = 180;
    const frames = new Map<VideoStyle, Uint8Array>();
    for (const style of VIDEO_STYLES) {
      const file = await engine.generate(request({ style, seed: 4 }), context());
      frames.set(style, frameAt(save(file), 0.5, W, H));
    }
    for (const a of VIDEO_STYLES)
      for (const b of VIDEO_STYLES) if (a < b) expect(meanAbs(frames.get(a)!, frames.get(b)!), `${a} vs ${b}`).toBeGreaterThan(4);
    // Cinematic is letterboxed: black bars top and bottom; the others fill the frame.
    const bar = Math.floor((H - W / 2.39) / 2) - 2;
    expect(rowsMean(frames.get('cinematic')!, W, 0, bar)).toBeLessThan(3);
    expect(rowsMean(frames.get('cinematic')!, W, H - bar, H)).toBeLessThan(3);
    expect(rowsMean(frames.get('realistic')!, W, 0, bar)).toBeGreaterThan(10);
  });

  it('moves: frames at different times differ', async () => {
    for (const style of ['documentary', 'abstract'] as const) {
      const path = save(await engine.generate(request({ style, durationSec: 2 }), context()));
      expect(meanAbs(frameAt(path, 0.2, 320, 180), frameAt(path, 1.6, 320, 180)), style).toBeGreaterThan(1);
    }
  });

  it('stops encoding and throws when aborted', async () => {
    const already = new AbortController();
    already.abort();
    expect(((await rejection(engine.generate(request(), context(already.signal)))) as Error).name).toBe('AbortError');

    const ac = new AbortController();
    let reports = 0;
    const ctx: GenerationContext = {
      signal: ac.signal,
      onProgress: (f) => {
        if (f > 0 && ++reports === 1) ac.abort();
      },
    };
    const started = performance.now();
    const err = await rejection(
      createBuiltinVideoEngine({ progressIntervalMs: 0 }).generate(request({ durationSec: 20, width: 1280, height: 720, fps: 30 }), ctx),
    );
    expect((err as Error).name).toBe('AbortError');
    // Far sooner than the 600 frames would take (tens of seconds), and only one report got out.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(reports).toBe(1);
  });

  it('refuses requests outside its limits', async () => {
    const bad: Partial<VideoRequest>[] = [
      { width: 321 },
      { height: 100 },
      { fps: 0 },
      { fps: 120 },
      { durationSec: 0 },
      { durationSec: 61 },
      { style: 'noir' as VideoStyle },
    ];
    for (const over of bad) {
      const err = await rejection(engine.generate(request(over), context()));
      expect(err).toBeInstanceOf(EngineError);
      expect((err as EngineError).code, JSON.stringify(over)).toBe('VALIDATION_FAILED');
    }
  });

  it('says clearly when ffmpeg is missing', async () => {
    expect(() => resolveFfmpeg({ PATH: '/nonexistent' })).toThrow(/ffmpeg was not found/);
    expect(() => resolveFfmpeg({ PATH: '', FFMPEG_PATH: '/nonexistent/ffmpeg' })).toThrow(/FFMPEG_PATH/);
    const err = await rejection(createBuiltinVideoEngine({ ffmpegPath: '/nonexistent/ffmpeg' }).generate(request(), context()));
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('VIDEO_GENERATE_FAILED');
  });
});
