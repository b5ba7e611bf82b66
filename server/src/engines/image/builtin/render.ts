/** Text-to-image: prompt → traits → palette → plan → drawing → finishing → pixels. */
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { analysePrompt, type PromptTraits } from '../../procedural/prompt.ts';
import { buildPalette, type Palette } from '../../procedural/palette.ts';
import { canvasOf, drawScene, planScene, type ScenePlan } from '../../procedural/scene.ts';
import { lookFor, type Look } from '../../procedural/look.ts';
import { applyGrade, applyPaper, applySketch, bloom, planGrade, soften } from '../../procedural/post.ts';
import { mixSeeds } from '../../procedural/prng.ts';

export interface Rendering {
  traits: PromptTraits;
  palette: Palette;
  plan: ScenePlan;
  look: Look;
  canvas: Canvas;
  ctx: SKRSContext2D;
  width: number;
  height: number;
  /** The scene before the pixel finishing (grade, grain, texture). */
  drawn: () => Uint8ClampedArray;
}

/**
 * Draws the scene for a prompt and seed, without the per-pixel finishing. The composition depends
 * on seed and prompt only, not on the size: a 512² and a 1536² render show the same picture.
 */
export function drawPicture(prompt: string, negativePrompt: string, seed: number, width: number, height: number): Rendering {
  const traits = analysePrompt(prompt, negativePrompt);
  const palette = buildPalette(traits);
  const plan = planScene(traits, palette, mixSeeds(seed, traits.hash));
  const look = lookFor(traits, palette);
  const { canvas, ctx } = canvasOf(width, height);
  drawScene(ctx, canvas, plan, width, height);
  bloom(canvas, ctx, look.bloom);
  soften(canvas, ctx, look.soften);
  return {
    traits,
    palette,
    plan,
    look,
    canvas,
    ctx,
    width,
    height,
    drawn: () => ctx.getImageData(0, 0, width, height).data,
  };
}

/** Texture, ink and grade, in place. */
export function finishPixels(px: Uint8ClampedArray, r: Rendering, seed: number, grainScale = 1): void {
  const { look, palette, width, height } = r;
  if (look.sketch) applySketch(px, width, height, palette.paper, palette.shadow);
  applyPaper(px, width, height, mixSeeds(seed, 0xaa), look.texture, palette.paper);
  const g = grainScale === 1 ? look.grade : { ...look.grade, grain: look.grade.grain * grainScale };
  applyGrade(px, planGrade(width, height, g), mixSeeds(seed, 0x9a1));
}

/** The finished RGBA pixels of a text-to-image render. */
export function renderPicture(prompt: string, negativePrompt: string, seed: number, width: number, height: number): { pixels: Uint8ClampedArray; rendering: Rendering } {
  const rendering = drawPicture(prompt, negativePrompt, seed, width, height);
  const pixels = rendering.drawn();
  finishPixels(pixels, rendering, seed);
  return { pixels, rendering };
}
