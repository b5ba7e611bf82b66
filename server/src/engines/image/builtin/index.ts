/**
 * The built-in offline image engine: procedural text-to-image and image-to-image, no network, no
 * keys, deterministic for a seed. See render.ts (text-to-image) and edit.ts (image-to-image).
 */
import {
  EngineError,
  type GenerationContext,
  type ImageEditRequest,
  type ImageEngine,
  type ImageRequest,
  type OutputFile,
} from '../../types.ts';
import { checkInt, checkNumber, normaliseSeed, throwIfAborted, yieldToLoop } from '../../procedural/model.ts';
import { encodePng } from '../../procedural/png.ts';
import { decodeInput, editPicture, editSize } from './edit.ts';
import { proceduralImageModel, IMAGE_SIZE_LIMIT } from './model.ts';
import { renderPicture } from './render.ts';

export { proceduralImageModel, PROCEDURAL_IMAGE_MODEL_ID, IMAGE_SIZE_LIMIT } from './model.ts';

export interface BuiltinImageEngine extends ImageEngine {
  readonly model: typeof proceduralImageModel;
}

function checkCommon(req: ImageRequest): { n: number; seed: number; prompt: string; negative: string } {
  if (typeof req.prompt !== 'string') throw new EngineError('VALIDATION_FAILED', 'prompt must be a string');
  const n = checkInt('n', req.n ?? 1, proceduralImageModel.limits.n as { min: number; max: number });
  return { n, seed: normaliseSeed(req.seed), prompt: req.prompt, negative: typeof req.negativePrompt === 'string' ? req.negativePrompt : '' };
}

/** Runs `n` renders one after another, reporting progress with an estimate from the ones done. */
async function produce(n: number, ctx: GenerationContext, one: (index: number) => Promise<OutputFile>): Promise<OutputFile[]> {
  const out: OutputFile[] = [];
  const started = performance.now();
  ctx.onProgress(0);
  for (let i = 0; i < n; i++) {
    throwIfAborted(ctx);
    out.push(await one(i));
    throwIfAborted(ctx);
    const done = i + 1;
    const perImage = (performance.now() - started) / done;
    ctx.onProgress(done / n, Math.round(perImage * (n - done)));
    if (done < n) await yieldToLoop();
  }
  return out;
}

function png(data: Uint8Array, width: number, height: number): OutputFile {
  return { data, contentType: 'image/png', extension: 'png', width, height };
}

export function createBuiltinImageEngine(): BuiltinImageEngine {
  return {
    kind: 'image',
    model: proceduralImageModel,

    async generate(req: ImageRequest, ctx: GenerationContext): Promise<OutputFile[]> {
      const { n, seed, prompt, negative } = checkCommon(req);
      const width = checkInt('width', req.width, IMAGE_SIZE_LIMIT);
      const height = checkInt('height', req.height, IMAGE_SIZE_LIMIT);
      throwIfAborted(ctx);
      return produce(n, ctx, async (i) => {
        // Image i of a batch uses seed + i, so a batch's first image is the single image of that seed.
        const s = seed + i;
        const { pixels } = renderPicture(prompt, negative, s, width, height);
        return png(await encodePng(pixels, width, height), width, height);
      });
    },

    async edit(req: ImageEditRequest, ctx: GenerationContext): Promise<OutputFile[]> {
      const { n, seed, prompt, negative } = checkCommon(req);
      const strength = checkNumber('strength', req.strength ?? proceduralImageModel.defaults.strength, { min: 0, max: 1 });
      if (!(req.image instanceof Uint8Array) || req.image.length === 0) throw new EngineError('VALIDATION_FAILED', 'image is required');
      throwIfAborted(ctx);
      const input = await decodeInput(req.image);
      const { width, height } = editSize(req.width, req.height, input);
      return produce(n, ctx, async (i) => {
        const pixels = await editPicture(input, prompt, negative, seed + i, width, height, strength);
        return png(await encodePng(pixels, width, height), width, height);
      });
    },
  };
}
