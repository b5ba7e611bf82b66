/**
 * The five video styles, each a different way of filming the same procedural scene: camera move,
 * aspect (letterbox), grade, grain, what moves in the frame.
 */
import type { VideoStyle } from '../../types.ts';
import { hex } from '../../procedural/color.ts';
import { fbm1 } from '../../procedural/noise.ts';
import type { Grade } from '../../procedural/post.ts';
import type { Particles, PromptTraits, StyleTag } from '../../procedural/prompt.ts';

export interface Camera {
  /** Horizontal and vertical offset, fractions of the frame (positive moves the picture right/down). */
  x: number;
  y: number;
  /** 1 = no zoom. */
  zoom: number;
  /** Radians. */
  rot: number;
}

export interface VideoStyleSpec {
  id: VideoStyle;
  /** Style words added to the prompt's reading. */
  add: StyleTag[];
  remove: StyleTag[];
  /** `t` runs 0 → 1 over the clip, `sec` is the time in seconds, `dir` ±1 is the seeded direction. */
  camera(t: number, sec: number, dir: number, seed: number): Camera;
  /** Picture aspect inside the frame (black bars), or null for full frame. */
  letterbox: number | null;
  grade: Partial<Grade>;
  /** Per-frame bloom strength (0 = none; the scene's own glow is already in the layers). */
  bloom: number;
  /** Cloud drift speed (fractions of the width per second). */
  cloudSpeed: number;
  /** Anamorphic streak through the light. */
  flare: boolean;
  /** Fade from / to black, seconds. */
  fadeIn: number;
  fadeOut: number;
  /** Far layers slightly out of focus. */
  depthOfField: boolean;
  /** Particles when the prompt brings none. */
  particles: Particles | null;
  /** Parallax multiplier: how much depth the camera reveals. */
  parallax: number;
}

const ease = (t: number): number => t * t * (3 - 2 * t);

export const VIDEO_STYLE_SPECS: Record<VideoStyle, VideoStyleSpec> = {
  cinematic: {
    id: 'cinematic',
    add: ['dramatic'],
    remove: ['flat', 'sketch'],
    // A slow dolly in with a lateral drift that opens up the layers.
    camera: (t, _sec, dir) => {
      const e = ease(t);
      return { x: dir * (-0.035 + 0.07 * e), y: 0.012 * e, zoom: 1 + 0.11 * e, rot: 0 };
    },
    letterbox: 2.39,
    grade: {
      shadowTint: hex('#14505e'),
      highlightTint: hex('#ffb36b'),
      split: 0.32,
      contrast: 1.16,
      saturation: 1.02,
      vignette: 0.5,
      grain: 5,
    },
    bloom: 0.25,
    cloudSpeed: 0.008,
    flare: true,
    fadeIn: 0.6,
    fadeOut: 0.5,
    depthOfField: true,
    particles: 'dust',
    parallax: 1,
  },
  animation: {
    id: 'animation',
    add: ['flat', 'vibrant'],
    remove: ['noir', 'vintage', 'sketch', 'watercolor', 'photo', 'dramatic'],
    // A side-scrolling pan with a little bounce, like a rostrum camera over painted cels.
    camera: (t, sec, dir) => ({ x: dir * (-0.06 + 0.12 * t), y: 0.004 * Math.sin(sec * Math.PI * 1.5), zoom: 1.03, rot: 0 }),
    letterbox: null,
    grade: { grain: 0, vignette: 0, saturation: 1.28, contrast: 1.06, posterize: 9, split: 0 },
    bloom: 0,
    cloudSpeed: 0.035,
    flare: false,
    fadeIn: 0,
    fadeOut: 0,
    depthOfField: false,
    particles: null,
    parallax: 1.6,
  },
  realistic: {
    id: 'realistic',
    add: ['photo'],
    remove: ['flat', 'neon', 'sketch'],
    // A locked-off tripod with a very slow pan.
    camera: (t, _sec, dir) => ({ x: dir * (-0.015 + 0.03 * t), y: 0, zoom: 1.02 + 0.015 * t, rot: 0 }),
    letterbox: null,
    grade: { grain: 3, vignette: 0.2, contrast: 1.04, saturation: 0.98, split: 0.06 },
    bloom: 0,
    cloudSpeed: 0.006,
    flare: false,
    fadeIn: 0,
    fadeOut: 0,
    depthOfField: true,
    particles: null,
    parallax: 0.8,
  },
  documentary: {
    id: 'documentary',
    add: [],
    remove: ['neon', 'flat'],
    // Handheld: a slow push (Ken Burns) with the small shake and drift of a camera on a shoulder.
    camera: (t, sec, _dir, seed) => ({
      x: fbm1(seed, sec * 0.9, 3) * 0.012,
      y: fbm1(seed + 17, sec * 1.1, 3) * 0.01,
      zoom: 1.06 + 0.07 * t + 0.004 * Math.sin(sec * 0.8),
      rot: fbm1(seed + 31, sec * 0.7, 2) * 0.008,
    }),
    letterbox: null,
    grade: { saturation: 0.8, lift: 0.045, contrast: 1.02, grain: 5, vignette: 0.3, split: 0.1, highlightTint: hex('#ffe2b8'), shadowTint: hex('#303838') },
    bloom: 0,
    cloudSpeed: 0.01,
    flare: false,
    fadeIn: 0,
    fadeOut: 0,
    depthOfField: false,
    particles: null,
    parallax: 0.7,
  },
  abstract: {
    id: 'abstract',
    add: ['vibrant'],
    remove: ['noir', 'sketch', 'flat'],
    // A slow turn and breathing zoom; the shapes do the rest.
    camera: (t, sec, dir) => ({ x: 0, y: 0, zoom: 1.08 + 0.05 * Math.sin(sec * 0.9), rot: dir * 0.35 * t }),
    letterbox: null,
    grade: { grain: 0, vignette: 0.4, saturation: 1.2, contrast: 1.1, split: 0 },
    bloom: 0.45,
    cloudSpeed: 0,
    flare: false,
    fadeIn: 0.3,
    fadeOut: 0.3,
    depthOfField: false,
    particles: 'dust',
    parallax: 1,
  },
};

/** The prompt's reading, adjusted for a style. */
export function traitsForStyle(traits: PromptTraits, spec: VideoStyleSpec): PromptTraits {
  const styles = new Set(traits.styles);
  for (const s of spec.remove) styles.delete(s);
  for (const s of spec.add) styles.add(s);
  const features = new Set(traits.features);
  let theme = traits.theme;
  if (spec.id === 'abstract') {
    theme = 'abstract';
    features.clear();
    features.add('shapes');
  }
  if ((spec.id === 'animation' || spec.id === 'realistic') && theme !== 'space' && theme !== 'portrait' && theme !== 'abstract') {
    features.add('clouds');
  }
  return { ...traits, styles, features, theme, particles: traits.particles ?? spec.particles };
}
