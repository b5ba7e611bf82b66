/** The finishing look of a picture, from its light and style words: grade, bloom, texture. */
import { hex } from './color.ts';
import type { Palette } from './palette.ts';
import { grade, type Grade } from './post.ts';
import type { PromptTraits } from './prompt.ts';

export interface Look {
  grade: Grade;
  /** Bloom strength 0 … 1. */
  bloom: number;
  /** 0 … 1 of a blurred copy laid over (soft focus). */
  soften: number;
  /** Pigment / paper texture amount 0 … 1 (watercolour, vintage). */
  texture: number;
  /** Ink-line rendering (sketch). */
  sketch: boolean;
}

export function lookFor(traits: PromptTraits, palette: Palette): Look {
  const s = traits.styles;
  const l = traits.lighting;
  const g: Partial<Grade> = {
    contrast: 1.08,
    saturation: 1.05,
    vignette: 0.32,
    grain: 5,
  };
  let bloom = l === 'sunset' || l === 'dawn' ? 0.45 : l === 'night' ? 0.35 : l === 'day' ? 0.22 : 0.15;
  let soften = 0;
  let texture = 0;
  if (l === 'sunset') Object.assign(g, { shadowTint: hex('#3a1f5c'), highlightTint: hex('#ffb060'), split: 0.22 });
  if (l === 'night') Object.assign(g, { shadowTint: hex('#0a1a40'), highlightTint: hex('#c8dcff'), split: 0.2 });
  if (l === 'dawn') Object.assign(g, { shadowTint: hex('#4a4070'), highlightTint: hex('#ffd9b0'), split: 0.18 });
  if (l === 'fog') Object.assign(g, { contrast: 0.95, lift: 0.04, saturation: 0.85 });
  if (l === 'storm') Object.assign(g, { contrast: 1.18, saturation: 0.8, vignette: 0.45 });

  if (s.has('dramatic')) {
    Object.assign(g, { contrast: 1.25, vignette: 0.55, shadowTint: hex('#123a4a'), highlightTint: hex('#ffa860'), split: 0.25 });
    bloom += 0.15;
  }
  if (s.has('photo')) Object.assign(g, { contrast: 1.06, grain: 4, vignette: 0.22 });
  if (s.has('dreamy')) {
    Object.assign(g, { lift: 0.05, saturation: 0.92, contrast: 0.98, highlightTint: hex('#ffe0f0'), split: 0.15 });
    bloom += 0.35;
    soften = 0.3;
  }
  if (s.has('neon')) {
    Object.assign(g, { contrast: 1.12, saturation: 1.2, grain: 4, vignette: 0.45 });
    bloom += 0.45;
  }
  if (s.has('vibrant')) Object.assign(g, { saturation: 1.3, contrast: 1.12 });
  if (s.has('pastel')) Object.assign(g, { contrast: 0.9, lift: 0.06, saturation: 0.85, grain: 3, vignette: 0.15 });
  if (s.has('vintage')) {
    Object.assign(g, { sepia: 0.35, lift: 0.09, crush: 0.06, grain: 12, vignette: 0.5, saturation: 0.8, contrast: 1.05 });
    texture = Math.max(texture, 0.35);
  }
  if (s.has('noir')) Object.assign(g, { saturation: 0, contrast: 1.35, grain: 10, vignette: 0.55, sepia: 0, split: 0 });
  if (s.has('minimal')) {
    Object.assign(g, { grain: 2, vignette: 0.1, contrast: 1.02 });
    bloom *= 0.5;
  }
  if (s.has('flat')) {
    Object.assign(g, { posterize: 7, grain: 0, vignette: 0.08, contrast: 1.05, saturation: 1.12 });
    bloom = 0;
  }
  if (s.has('geometric')) Object.assign(g, { grain: 3, vignette: 0.12 });
  if (s.has('watercolor')) {
    Object.assign(g, { contrast: 0.92, lift: 0.05, saturation: 0.9, grain: 4, vignette: 0.35, vignetteColor: palette.paper });
    texture = 0.9;
    soften = Math.max(soften, 0.35);
    bloom *= 0.4;
  }
  if (s.has('sketch')) Object.assign(g, { grain: 3, vignette: 0.2, vignetteColor: palette.paper, saturation: 0.8 });
  return { grade: grade(g), bloom: Math.min(0.9, bloom), soften, texture, sketch: s.has('sketch') };
}
