import { createHash } from 'node:crypto';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { createBuiltinImageEngine, proceduralImageModel, PROCEDURAL_IMAGE_MODEL_ID } from '../src/engines/image/builtin/index.ts';
import { editWeights } from '../src/engines/image/builtin/edit.ts';
import { analysePrompt } from '../src/engines/procedural/prompt.ts';
import { pngSize } from '../src/engines/procedural/png.ts';
import { EngineError, type GenerationContext, type ImageEditRequest, type ImageRequest, type OutputFile } from '../src/engines/types.ts';

const engine = createBuiltinImageEngine();

function context(signal = new AbortController().signal): GenerationContext & { progress: [number, number | undefined][] } {
  const progress: [number, number | undefined][] = [];
  return { signal, progress, onProgress: (f, eta) => progress.push([f, eta]) };
}

function request(over: Partial<ImageRequest> = {}): ImageRequest {
  return { model: PROCEDURAL_IMAGE_MODEL_ID, prompt: 'a lake in the mountains at sunset', width: 512, height: 512, seed: 1, n: 1, ...over };
}

async function one(over: Partial<ImageRequest> = {}): Promise<OutputFile> {
  const [file] = await engine.generate(request(over), context());
  if (!file) throw new Error('no output');
  return file;
}

const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

async function pixels(data: Uint8Array): Promise<{ px: Uint8ClampedArray; width: number; height: number }> {
  const img = await loadImage(Buffer.from(data));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { px: ctx.getImageData(0, 0, img.width, img.height).data, width: img.width, height: img.height };
}

async function meanColour(data: Uint8Array): Promise<[number, number, number]> {
  const { px } = await pixels(data);
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0; i < px.length; i += 4) {
    r += px[i] as number;
    g += px[i + 1] as number;
    b += px[i + 2] as number;
  }
  const n = px.length / 4;
  return [r / n, g / n, b / n];
}

async function meanAbsDiff(a: Uint8Array, b: Uint8Array): Promise<number> {
  const pa = (await pixels(a)).px;
  const pb = (await pixels(b)).px;
  expect(pa.length).toBe(pb.length);
  let sum = 0;
  for (let i = 0; i < pa.length; i += 4) {
    sum += Math.abs((pa[i] as number) - (pb[i] as number));
    sum += Math.abs((pa[i + 1] as number) - (pb[i + 1] as number));
    sum += Math.abs((pa[i + 2] as number) - (pb[i + 2] as number));
  }
  return sum / ((pa.length / 4) * 3);
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('procedural prompt reading', () => {
  it('finds scene, light, style and colour words, and still hashes unknown words', () => {
    const t = analysePrompt('A neon city skyline at night, with magenta lights');
    expect(t.theme).toBe('city');
    expect(t.lighting).toBe('night');
    expect(t.styles.has('neon')).toBe(true);
    expect(t.colours).toHaveLength(1);
    const a = analysePrompt('a dragon');
    const b = analysePrompt('a teapot');
    expect(a.unknownWords).toEqual(['dragon']);
    expect(a.hash).not.toBe(b.hash);
  });

  it('removes what the negative prompt names', () => {
    const t = analysePrompt('forest with clouds, blue and green', 'clouds, blue');
    expect(t.features.has('clouds')).toBe(false);
    expect(t.colours).toHaveLength(1);
  });
});

// Generous time limits: the machine is shared, and a loaded one is slow, not wrong.
describe('built-in image engine: text to image', { timeout: 60_000 }, () => {
  it('describes itself honestly as a procedural model', () => {
    expect(engine.kind).toBe('image');
    expect(proceduralImageModel.id).toBe('atelier-procedural-image-1');
    expect(proceduralImageModel.description).toMatch(/procedural/i);
    expect(proceduralImageModel.description).toMatch(/not a neural model/i);
    expect(proceduralImageModel.limits.width).toEqual({ min: 512, max: 1536 });
  });

  it('returns PNGs of the requested size', async () => {
    const files = await engine.generate(request({ width: 768, height: 512, n: 2 }), context());
    expect(files).toHaveLength(2);
    for (const f of files) {
      expect(f.contentType).toBe('image/png');
      expect(f.extension).toBe('png');
      expect([f.width, f.height]).toEqual([768, 512]);
      expect(pngSize(f.data)).toEqual({ width: 768, height: 512 });
      const decoded = await pixels(f.data);
      expect([decoded.width, decoded.height]).toEqual([768, 512]);
    }
    expect(sha(files[0]!.data)).not.toBe(sha(files[1]!.data));
  });

  it('is deterministic: same seed and prompt give the same bytes; seed or prompt change them', async () => {
    const a = await one({ seed: 42 });
    const b = await one({ seed: 42 });
    const c = await one({ seed: 43 });
    const d = await one({ seed: 42, prompt: 'a lake in the mountains at dawn' });
    const e = await one({ seed: 42, negativePrompt: 'clouds' });
    expect(sha(a.data)).toBe(sha(b.data));
    expect(sha(a.data)).not.toBe(sha(c.data));
    expect(sha(a.data)).not.toBe(sha(d.data));
    expect(sha(a.data)).not.toBe(sha(e.data));
    // Seeds beyond 32 bits are not folded together.
    const big1 = await one({ seed: 2 ** 40 + 5 });
    const big2 = await one({ seed: 2 ** 41 + 5 });
    expect(sha(big1.data)).not.toBe(sha(big2.data));
  });

  it('starts a batch with the single image of the same seed', async () => {
    const single = await one({ seed: 9 });
    const batch = await engine.generate(request({ seed: 9, n: 2 }), context());
    expect(sha(batch[0]!.data)).toBe(sha(single.data));
  });

  it('lets unknown words change the picture', async () => {
    const a = await one({ prompt: 'a dragon', seed: 3 });
    const b = await one({ prompt: 'a teapot', seed: 3 });
    expect(await meanAbsDiff(a.data, b.data)).toBeGreaterThan(3);
  });

  it('takes its palette from the words: ocean pictures are bluer than sunset ones, red ones redder than blue ones', async () => {
    const blueness = async (prompt: string): Promise<number> => {
      let sum = 0;
      for (const seed of [1, 2, 3]) {
        const [r, , b] = await meanColour((await one({ prompt, seed })).data);
        sum += b - r;
      }
      return sum / 3;
    };
    expect(await blueness('the ocean')).toBeGreaterThan((await blueness('a sunset')) + 30);
    expect(await blueness('a blue abstract composition')).toBeGreaterThan((await blueness('a red abstract composition')) + 30);
  });

  it('renders different scenes and styles differently', async () => {
    const prompts = ['neon city at night', 'misty pine forest', 'portrait of a woman', 'galaxy with a ringed planet', 'watercolor desert'];
    const hashes = new Set<string>();
    for (const prompt of prompts) hashes.add(sha((await one({ prompt, seed: 5 })).data));
    expect(hashes.size).toBe(prompts.length);
  });

  it('is not static: neighbouring pixels mostly agree (a picture, not noise)', async () => {
    const { px, width } = await pixels((await one({ seed: 11 })).data);
    let diff = 0;
    let count = 0;
    for (let i = 0; i + 4 < px.length; i += 4 * 7) {
      if (((i / 4) % width) === width - 1) continue;
      diff += Math.abs((px[i] as number) - (px[i + 4] as number));
      count++;
    }
    expect(diff / count).toBeLessThan(12);
  });

  it('renders 1024×1024', async () => {
    const file = await one({ width: 1024, height: 1024, prompt: 'snowy alpine peaks, dramatic' });
    expect(pngSize(file.data)).toEqual({ width: 1024, height: 1024 });
  });

  it('refuses sizes and counts outside its limits', async () => {
    for (const over of [{ width: 511 }, { height: 1537 }, { width: 600.5 }, { n: 5 }, { n: 0 }, { seed: Number.NaN }]) {
      const err = await rejection(engine.generate(request(over), context()));
      expect(err).toBeInstanceOf(EngineError);
      expect((err as EngineError).code).toBe('VALIDATION_FAILED');
    }
  });

  it('reports progress up to 1 with an estimate', async () => {
    const ctx = context();
    await engine.generate(request({ n: 3 }), ctx);
    const fractions = ctx.progress.map(([f]) => f);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(ctx.progress.some(([f, eta]) => f > 0 && f < 1 && typeof eta === 'number' && eta >= 0)).toBe(true);
  });

  it('stops when aborted', async () => {
    const already = new AbortController();
    already.abort();
    const err1 = await rejection(engine.generate(request(), context(already.signal)));
    expect((err1 as Error).name).toBe('AbortError');

    const ac = new AbortController();
    const ctx: GenerationContext = {
      signal: ac.signal,
      onProgress: (f) => {
        if (f > 0) ac.abort();
      },
    };
    const started = performance.now();
    const err2 = await rejection(engine.generate(request({ n: 4 }), ctx));
    expect((err2 as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('built-in image engine: image to image', { timeout: 60_000 }, () => {
  const source = (async () => (await engine.generate(request({ prompt: 'city skyline at sunset', seed: 3 }), context()))[0]!.data)();

  function editRequest(image: Uint8Array, over: Partial<ImageEditRequest> = {}): ImageEditRequest {
    return { ...request({ prompt: 'neon night, cyan and magenta', seed: 8 }), image, strength: 0.5, ...over };
  }

  async function edit(over: Partial<ImageEditRequest> = {}): Promise<OutputFile> {
    const [file] = await engine.edit(editRequest(await source, over), context());
    if (!file) throw new Error('no output');
    return file;
  }

  it('keeps the picture at strength 0 and moves further from it as strength grows', async () => {
    const input = await source;
    const distances: number[] = [];
    for (const strength of [0, 0.25, 0.5, 0.75, 1]) distances.push(await meanAbsDiff(input, (await edit({ strength })).data));
    expect(distances[0]).toBeLessThan(1);
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThan(distances[i - 1]! + 1);
  });

  it('grows both stages of the edit monotonically with strength', () => {
    let prev = editWeights(0);
    expect(prev).toEqual({ styled: 0, rendered: 0 });
    for (let s = 0.05; s <= 1.0001; s += 0.05) {
      const w = editWeights(s);
      expect(w.styled).toBeGreaterThanOrEqual(prev.styled);
      expect(w.rendered).toBeGreaterThan(prev.rendered);
      prev = w;
    }
    expect(editWeights(1).rendered).toBeGreaterThan(0.5);
  });

  it('is deterministic and follows the prompt', async () => {
    const a = await edit({ strength: 0.6 });
    const b = await edit({ strength: 0.6 });
    const c = await edit({ strength: 0.6, seed: 9 });
    const d = await edit({ strength: 0.6, prompt: 'watercolor forest' });
    expect(sha(a.data)).toBe(sha(b.data));
    expect(sha(a.data)).not.toBe(sha(c.data));
    expect(sha(a.data)).not.toBe(sha(d.data));
  });

  it('reads JPEG and WebP uploads and sizes the output from the request, or from the upload when the request has none', async () => {
    const canvas = createCanvas(300, 200);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#2a6'; ctx.fillRect(0, 0, 300, 200);
    ctx.fillStyle = '#f80'; ctx.fillRect(100, 50, 100, 100);
    for (const bytes of [await canvas.encode('jpeg', 90), await canvas.encode('webp', 90)]) {
      const [sized] = await engine.edit(editRequest(new Uint8Array(bytes), { width: 640, height: 512 }), context());
      expect(pngSize(sized!.data)).toEqual({ width: 640, height: 512 });
      const [fromInput] = await engine.edit(editRequest(new Uint8Array(bytes), { width: 0, height: 0 }), context());
      expect(pngSize(fromInput!.data)).toEqual({ width: 768, height: 512 });
    }
  });

  it('refuses what is not a PNG, JPEG or WebP picture, and strengths outside 0 … 1', async () => {
    const garbage = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const truncated = (await source).slice(0, 200);
    for (const image of [garbage, truncated, new Uint8Array(0)]) {
      const err = await rejection(engine.edit(editRequest(image), context()));
      expect((err as EngineError).code).toBe('VALIDATION_FAILED');
    }
    const err = await rejection(engine.edit(editRequest(await source, { strength: 1.5 }), context()));
    expect((err as EngineError).code).toBe('VALIDATION_FAILED');
  });
});
