/**
 * Scenes: a plan (what is where, decided from the prompt and the seed) and the drawing of it with
 * the 2D canvas: sky, light, stars, clouds, layered terrain with haze, water with reflections,
 * city skylines, forests, dunes, a portrait figure, abstract compositions, particles.
 *
 * Positions in a plan are fractions of the canvas, so the same plan draws the same picture at any
 * size (and video frames can draw it onto an overscanned canvas for camera moves).
 */
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { createCanvas } from '@napi-rs/canvas';
import { css, hex, mix, scale, type Rgb } from './color.ts';
import { fbm1, ridged1 } from './noise.ts';
import type { Palette } from './palette.ts';
import { createRng, type Rng } from './prng.ts';
import type { Particles, PromptTraits, StyleTag } from './prompt.ts';

export type TerrainKind = 'mountains' | 'hills' | 'dunes' | 'city' | 'trees';

export interface TerrainLayer {
  kind: TerrainKind;
  /** 0 far … 1 near. */
  depth: number;
  /** Where the profile sits, as a fraction of the height (its mean crest line). */
  crest: number;
  /** Profile amplitude, fraction of the height. */
  amplitude: number;
  seed: number;
  colour: Rgb;
  /** How strongly faces turned to the light are lit (0 … 1). */
  lit: number;
  snow: boolean;
  treeKind: 'pine' | 'round';
}

export interface Cloud {
  x: number;
  y: number;
  w: number;
  h: number;
  kind: 'puff' | 'streak';
  seed: number;
}

export interface Blob {
  x: number;
  y: number;
  r: number;
  colour: Rgb;
  alpha: number;
}

export interface Shape {
  kind: 'circle' | 'ring' | 'rect' | 'triangle' | 'arc' | 'line' | 'ribbon' | 'orb';
  x: number;
  y: number;
  size: number;
  rotation: number;
  colour: Rgb;
  colour2: Rgb;
  alpha: number;
  seed: number;
}

export interface ScenePlan {
  traits: PromptTraits;
  palette: Palette;
  styles: Set<StyleTag>;
  seed: number;
  horizon: number;
  light: { kind: 'sun' | 'moon' | 'none'; x: number; y: number; r: number };
  layers: TerrainLayer[];
  water: boolean;
  clouds: Cloud[];
  stars: number;
  nebula: Blob[];
  planet: { x: number; y: number; r: number; colour: Rgb; ring: boolean; tilt: number } | null;
  aurora: boolean;
  figure: { x: number; y: number; size: number; facing: number } | null;
  shapes: Shape[];
  abstractMode: 'bauhaus' | 'flow' | null;
  birds: { x: number; y: number; n: number } | null;
  particles: Particles | null;
  rays: boolean;
  neonGrid: boolean;
  /** Terrain stands on the horizon line (water or a grid floor in front). */
  onHorizon: boolean;
  foreground: boolean;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return rng.pick(items);
}

/** Decides the composition. Pure: the same traits, palette and seed give the same plan. */
export function planScene(traits: PromptTraits, palette: Palette, seed: number): ScenePlan {
  const rng = createRng(seed);
  const comp = rng.fork('composition');
  const s = traits.styles;
  const f = traits.features;
  const minimal = s.has('minimal');
  const lighting = traits.lighting;

  let horizon = minimal ? comp.range(0.68, 0.78) : comp.range(0.56, 0.68);
  if (f.has('city')) horizon = comp.range(0.66, 0.74);
  if (traits.theme === 'space') horizon = comp.range(0.78, 0.9);

  // Light on a third, as a photographer would put it.
  const third = comp.chance(0.5) ? 1 / 3 : 2 / 3;
  const lx = third + comp.range(-0.08, 0.08);
  let light: ScenePlan['light'];
  if (lighting === 'night' || f.has('moon')) {
    light = { kind: 'moon', x: lx, y: comp.range(0.14, 0.3), r: comp.range(0.035, 0.06) };
  } else if (lighting === 'sunset') {
    light = { kind: 'sun', x: lx, y: horizon - comp.range(0.03, 0.1), r: comp.range(0.06, 0.1) };
  } else if (lighting === 'dawn') {
    light = { kind: 'sun', x: lx, y: horizon - comp.range(0.08, 0.18), r: comp.range(0.05, 0.075) };
  } else if (lighting === 'day') {
    light = { kind: 'sun', x: lx, y: comp.range(0.12, 0.26), r: comp.range(0.04, 0.06) };
  } else {
    light = { kind: 'none', x: lx, y: comp.range(0.15, 0.3), r: 0.08 };
  }
  if (minimal && light.kind !== 'none') light.r *= 1.8;
  if (s.has('neon') && light.kind !== 'moon') light = { kind: 'sun', x: 0.5, y: horizon - 0.14, r: 0.17 };

  const layers: TerrainLayer[] = [];
  const water = f.has('water');
  const litBy: Record<string, number> = { day: 0.55, dawn: 0.4, sunset: 0.45, night: 0.18, fog: 0.15, storm: 0.12 };
  const lit = litBy[lighting] ?? 0.3;
  const lr = rng.fork('layers');
  const words = new Set(traits.words);
  const treeKind: 'pine' | 'round' = ['jungle', 'autumn', 'fall', 'spring', 'park', 'garden', 'tropical', 'oak', 'orchard'].some(
    (w) => words.has(w),
  )
    ? 'round'
    : ['pine', 'pines', 'taiga', 'winter', 'snow', 'mountain', 'mountains', 'alpine'].some((w) => words.has(w))
      ? 'pine'
      : lr.chance(0.6)
        ? 'pine'
        : 'round';

  const kinds: TerrainKind[] = [];
  if (f.has('mountains')) kinds.push('mountains');
  if (f.has('dunes')) kinds.push('dunes');
  if (f.has('city')) kinds.push('city');
  if (f.has('hills')) kinds.push('hills');
  if (f.has('trees')) kinds.push('trees');
  const scenic = traits.theme !== 'portrait' && traits.theme !== 'abstract' && traits.theme !== 'space';
  if (scenic && kinds.length === 0 && !water) kinds.push('hills');
  if (scenic && kinds.length === 0 && water) kinds.push(lr.chance(0.7) ? 'mountains' : 'hills');

  // How many layers of each kind: minimal keeps it to two or three planes.
  const plan: TerrainKind[] = [];
  for (const k of kinds) {
    const n = minimal ? 1 : k === 'city' ? 3 : k === 'trees' ? 3 : k === 'dunes' ? 3 : k === 'mountains' ? 3 : 2;
    for (let i = 0; i < n; i++) plan.push(k);
  }
  // Order far → near: mountains behind, then city/dunes, then hills, then trees.
  const order: Record<TerrainKind, number> = { mountains: 0, city: 1, dunes: 1, hills: 2, trees: 3 };
  plan.sort((a, b) => order[a] - order[b]);
  const total = Math.min(plan.length, minimal ? 3 : 6);
  const chosen = plan.slice(0, total);
  // Over water or a neon grid floor everything stands on the far shore; the floor takes the foreground.
  const onHorizon = water || (s.has('neon') && scenic);
  if (onHorizon) chosen.splice(Math.min(chosen.length, 4));
  chosen.forEach((kind, i) => {
    const depth = chosen.length === 1 ? 0.5 : i / (chosen.length - 1);
    const nearest = onHorizon ? horizon : 1.02;
    let crest: number;
    let amplitude: number;
    if (onHorizon) {
      crest = horizon - (kind === 'mountains' ? lr.range(0.12, 0.2) * (1 - depth * 0.4) : lr.range(0.03, 0.07));
      amplitude = kind === 'mountains' ? lr.range(0.1, 0.18) : lr.range(0.035, 0.07);
    } else {
      const t = chosen.length === 1 ? 0.3 : i / (chosen.length - 1);
      crest = horizon - 0.2 + t * (nearest - horizon + 0.08) + lr.range(-0.02, 0.02);
      if (kind === 'mountains') {
        crest -= 0.06 * (1 - t);
        amplitude = lr.range(0.14, 0.24) * (1 - t * 0.35);
      } else if (kind === 'city') amplitude = lr.range(0.1, 0.2) * (1 - t * 0.3);
      else if (kind === 'dunes') amplitude = lr.range(0.05, 0.1);
      else if (kind === 'trees') amplitude = lr.range(0.05, 0.09) * (0.6 + t);
      else amplitude = lr.range(0.04, 0.08);
    }
    if (kind === 'city' && onHorizon) amplitude = lr.range(0.12, 0.22) * (1 - depth * 0.3);
    // Atmospheric perspective: far layers take the colour of the air.
    const base = palette.land[Math.min(2, Math.round(depth * 2))] as Rgb;
    const hazeK = (1 - depth) * (lighting === 'fog' ? 0.75 : lighting === 'night' ? 0.35 : 0.55) * (water ? 0.8 : 1);
    const colour = mix(base, palette.haze, hazeK);
    layers.push({
      kind,
      depth,
      crest,
      amplitude,
      seed: lr.u32(),
      colour,
      lit: kind === 'dunes' ? Math.min(0.9, lit * 1.6) : lit * (0.35 + 0.65 * depth),
      snow: kind === 'mountains' && ((f.has('snowcaps') && depth < 0.9) || (lighting === 'day' && depth < 0.5 && lr.chance(0.5))),
      treeKind,
    });
  });

  // A low sun sits on the far ridge, half behind it.
  const far = layers[0];
  if (far && (lighting === 'sunset' || lighting === 'dawn') && light.kind === 'sun' && !s.has('neon')) {
    light.y = Math.min(light.y, far.crest - far.amplitude * comp.range(0.2, 0.6));
  }
  if (far && s.has('neon') && light.kind === 'sun') light.y = Math.min(light.y, far.crest - far.amplitude * 0.3);

  const cr = rng.fork('clouds');
  const clouds: Cloud[] = [];
  const cloudy = f.has('clouds') || lighting === 'storm' || lighting === 'fog';
  if (scenic && !minimal && !s.has('neon')) {
    const n = cloudy ? cr.int(6, 10) : lighting === 'night' ? cr.int(0, 2) : cr.int(2, 5);
    for (let i = 0; i < n; i++) {
      const streak = lighting === 'sunset' || lighting === 'dawn' || lighting === 'storm' ? cr.chance(0.75) : cr.chance(0.25);
      clouds.push({
        x: cr.range(-0.1, 1.1),
        y: cr.range(0.06, horizon - 0.12),
        w: streak ? cr.range(0.25, 0.6) : cr.range(0.12, 0.26),
        h: streak ? cr.range(0.012, 0.03) : cr.range(0.04, 0.08),
        kind: streak ? 'streak' : 'puff',
        seed: cr.u32(),
      });
    }
  }

  const nr = rng.fork('nebula');
  const nebula: Blob[] = [];
  if (f.has('nebula') || (traits.theme === 'space' && nr.chance(0.8))) {
    const n = nr.int(7, 12);
    const cx = nr.range(0.3, 0.7);
    const cy = nr.range(0.3, 0.55);
    for (let i = 0; i < n; i++) {
      nebula.push({
        x: cx + nr.gauss() * 0.18,
        y: cy + nr.gauss() * 0.12,
        r: nr.range(0.12, 0.32),
        colour: nr.pick(palette.accents),
        alpha: nr.range(0.12, 0.3),
      });
    }
  }
  const pr = rng.fork('planet');
  const planet =
    f.has('planet') && traits.theme !== 'portrait'
      ? {
          x: pr.chance(0.5) ? pr.range(0.22, 0.36) : pr.range(0.64, 0.78),
          y: pr.range(0.3, 0.55),
          r: pr.range(0.12, 0.22),
          colour: pr.pick(palette.accents),
          ring: pr.chance(0.55),
          tilt: pr.range(-0.5, 0.5),
        }
      : null;

  const fr = rng.fork('figure');
  const figure = f.has('figure')
    ? { x: pick(fr, [0.42, 0.58, 0.5]) + fr.range(-0.03, 0.03), y: fr.range(0.36, 0.42), size: fr.range(0.85, 1), facing: light.x < 0.5 ? -1 : 1 }
    : null;

  const sr = rng.fork('shapes');
  const shapes: Shape[] = [];
  let abstractMode: ScenePlan['abstractMode'] = null;
  if (f.has('shapes')) {
    abstractMode =
      s.has('geometric') || s.has('minimal') || s.has('flat')
        ? 'bauhaus'
        : s.has('neon') || s.has('dreamy') || s.has('vibrant')
          ? 'flow'
          : sr.chance(0.5)
            ? 'bauhaus'
            : 'flow';
    const n = abstractMode === 'bauhaus' ? (minimal ? sr.int(3, 5) : sr.int(6, 11)) : sr.int(7, 12) + Math.round(traits.energy * 6);
    const named = traits.colours;
    const kindsB: Shape['kind'][] = ['circle', 'circle', 'rect', 'triangle', 'arc', 'ring', 'line'];
    const kindsF: Shape['kind'][] = ['ribbon', 'ribbon', 'orb', 'ribbon', 'orb', 'ring'];
    for (let i = 0; i < n; i++) {
      const big = i < 2;
      shapes.push({
        kind: sr.pick(abstractMode === 'bauhaus' ? kindsB : kindsF),
        // Big shapes on the thirds; smaller ones scattered.
        x: big ? sr.pick([1 / 3, 2 / 3]) + sr.range(-0.06, 0.06) : sr.range(0.08, 0.92),
        y: big ? sr.pick([1 / 3, 2 / 3]) + sr.range(-0.06, 0.06) : sr.range(0.08, 0.92),
        size: big ? sr.range(0.25, 0.42) : sr.range(0.06, 0.22),
        rotation: abstractMode === 'bauhaus' ? sr.pick([0, Math.PI / 4, Math.PI / 2, -Math.PI / 4]) : sr.range(0, Math.PI * 2),
        // Named colours lead: the big shapes take them, the rest mostly do.
        colour: named.length > 0 && (big || sr.chance(0.6)) ? (named[i % named.length] as Rgb) : (palette.accents[i % palette.accents.length] as Rgb),
        colour2: named.length > 0 && sr.chance(0.6) ? sr.pick(named) : sr.pick(palette.accents),
        alpha: abstractMode === 'bauhaus' ? sr.range(0.85, 1) : sr.range(0.35, 0.8),
        seed: sr.u32(),
      });
    }
  }

  const br = rng.fork('birds');
  const birds =
    scenic && (f.has('birds') || (br.chance(0.25) && !minimal && lighting !== 'night' && lighting !== 'storm'))
      ? { x: br.range(0.15, 0.85), y: br.range(0.15, horizon - 0.2), n: br.int(3, 9) }
      : null;

  let particles = traits.particles;
  if (!particles && lighting === 'storm' && scenic) particles = 'rain';
  if (!particles && f.has('snowcaps') && traits.theme === 'snow' && cr.chance(0.5)) particles = 'snow';

  return {
    traits,
    palette,
    styles: s,
    seed,
    horizon,
    light,
    layers,
    water,
    clouds,
    stars: f.has('stars') ? (traits.theme === 'space' ? 1 : 0.6) : 0,
    nebula,
    planet,
    aurora: f.has('aurora'),
    figure,
    shapes,
    abstractMode,
    birds,
    particles,
    rays: (s.has('dramatic') || s.has('dreamy') || lighting === 'dawn') && light.kind === 'sun' && scenic && !minimal,
    neonGrid: s.has('neon') && scenic && !water,
    onHorizon,
    foreground: scenic && !minimal && water && rng.fork('fg').chance(0.5),
  };
}

// ───────────────────────────── drawing ─────────────────────────────

type Ctx = SKRSContext2D;

/** Strokes the current path as a glowing line (wide faint passes under a crisp one; cheaper than shadowBlur). */
function glowStroke(ctx: Ctx, colour: Rgb, width: number, alpha = 1): void {
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.strokeStyle = css(colour, 0.07 * alpha);
  ctx.lineWidth = width * 7;
  ctx.stroke();
  ctx.strokeStyle = css(colour, 0.18 * alpha);
  ctx.lineWidth = width * 3;
  ctx.stroke();
  ctx.strokeStyle = css(mix(colour, hex('#ffffff'), 0.35), alpha);
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.restore();
}

/** The crest line of a terrain layer, sampled every `step` pixels across `width`. */
export function profile(layer: TerrainLayer, width: number, height: number, step: number): Float32Array {
  const n = Math.ceil(width / step) + 2;
  const ys = new Float32Array(n);
  const baseY = layer.crest * height;
  const amp = layer.amplitude * height;
  const freq = layer.kind === 'mountains' ? 1.5 + layer.depth * 1.2 : layer.kind === 'dunes' ? 1.6 : 1.8;
  // Mountains: a handful of distinct peaks (so the range reads as mountains, not noise), roughened.
  const peaks: [number, number, number][] = [];
  if (layer.kind === 'mountains') {
    const rng = createRng(layer.seed ^ 0x9ea4);
    const count = rng.int(4, 7);
    for (let k = 0; k < count; k++) {
      const c = -0.1 + (1.2 * (k + rng.range(0.2, 0.8))) / count;
      peaks.push([c, rng.range(0.45, 1), rng.range(0.1, 0.26)]);
    }
  }
  for (let i = 0; i < n; i++) {
    const u = (i * step) / width;
    let v: number;
    if (layer.kind === 'mountains') {
      let m = 0;
      for (const [c, ph, hw] of peaks) {
        const d = Math.abs(u - c) / hw;
        if (d < 1) m = Math.max(m, ph * Math.pow(1 - d, 1.25));
      }
      const rough = ridged1(layer.seed, u * freq * 4 + 10, 4) - 0.5;
      v = m * (1 + rough * 0.35) + rough * 0.06 - 0.15;
    }
    else if (layer.kind === 'dunes') {
      // Long windward slopes up to a sharp crest, then a short steep slip face.
      const w = u * freq * 2.2 + (layer.seed % 100) + fbm1(layer.seed ^ 0xd, u * 1.5, 2) * 0.6;
      const saw = w - Math.floor(w);
      const c = 0.72;
      const shape = saw < c ? Math.pow(saw / c, 1.6) : Math.pow((1 - saw) / (1 - c), 0.7);
      v = shape * (0.65 + 0.35 * fbm1(layer.seed ^ 0x77, Math.floor(w) * 0.7, 1)) + fbm1(layer.seed, u * 2, 2) * 0.25;
    } else v = fbm1(layer.seed, u * freq + 3, 3) * 0.9 + 0.2;
    ys[i] = baseY - v * amp;
  }
  return ys;
}

function pathProfile(ctx: Ctx, ys: Float32Array, step: number, bottom: number): void {
  // Runs well past both edges so shifted copies (lighting, camera moves) never show a gap.
  const reach = step * ys.length * 0.1;
  const last = (ys.length - 2) * step;
  ctx.beginPath();
  ctx.moveTo(-step - reach, bottom);
  ctx.lineTo(-step - reach, ys[0] as number);
  for (let i = 0; i < ys.length; i++) ctx.lineTo((i - 1) * step, ys[i] as number);
  ctx.lineTo(last + reach, ys[ys.length - 1] as number);
  ctx.lineTo(last + reach, bottom);
  ctx.closePath();
}

export function drawSky(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const p = plan.palette;
  const hz = plan.horizon * h;
  const g = ctx.createLinearGradient(0, 0, 0, plan.traits.theme === 'space' ? h : hz);
  g.addColorStop(0, css(p.skyTop));
  g.addColorStop(0.55, css(p.skyMid));
  g.addColorStop(1, css(p.skyLow));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  if (plan.traits.theme !== 'space') {
    ctx.fillStyle = css(p.skyLow);
    ctx.fillRect(0, hz, w, h - hz);
  }

  const u = Math.min(w, h);
  // A wide glow of the light over the sky.
  if (plan.light.kind !== 'none') {
    const lx = plan.light.x * w;
    const ly = plan.light.y * h;
    const rg = ctx.createRadialGradient(lx, ly, 0, lx, ly, u * (plan.light.kind === 'moon' ? 0.45 : 0.85));
    const a = plan.light.kind === 'moon' ? 0.25 : plan.traits.lighting === 'day' ? 0.45 : 0.7;
    rg.addColorStop(0, css(p.glow, a));
    rg.addColorStop(0.35, css(p.glow, a * 0.35));
    rg.addColorStop(1, css(p.glow, 0));
    ctx.save();
    ctx.globalCompositeOperation = 'screen';
    ctx.fillStyle = rg;
    ctx.fillRect(0, 0, w, h);
    ctx.restore();
  }
  // The band of bright air on the horizon.
  if (plan.traits.theme === 'space') {
    drawStars(ctx, plan, w, h, time);
    if (plan.nebula.length > 0) drawNebula(ctx, plan, w, h);
    drawLight(ctx, plan, w, h);
    if (plan.planet) drawPlanet(ctx, plan, w, h);
    return;
  }
  const hb = ctx.createLinearGradient(0, hz - h * 0.18, 0, hz);
  hb.addColorStop(0, css(p.haze, 0));
  hb.addColorStop(1, css(p.haze, plan.traits.lighting === 'night' ? 0.25 : 0.45));
  ctx.fillStyle = hb;
  ctx.fillRect(0, hz - h * 0.18, w, h * 0.18);

  if (plan.stars > 0) drawStars(ctx, plan, w, h, time);
  if (plan.nebula.length > 0) drawNebula(ctx, plan, w, h);
  if (plan.aurora) drawAurora(ctx, plan, w, h, time);
  if (plan.rays) drawRays(ctx, plan, w, h);
  drawLight(ctx, plan, w, h);
  if (plan.planet) drawPlanet(ctx, plan, w, h);
}

export function drawStars(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const rng = createRng(plan.seed ^ 0x57a75);
  const n = Math.round(((w * h) / 1000) * plan.stars * 0.9);
  const hz = plan.horizon * h;
  const u = Math.min(w, h);
  const starColours = [hex('#ffffff'), hex('#cfe0ff'), hex('#fff0d6'), hex('#ffd9c9')];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * w;
    const y = Math.pow(rng.next(), 1.3) * hz;
    const m = Math.pow(rng.next(), 6);
    const twinkle = 0.75 + 0.25 * Math.sin(time * (2 + (i % 7)) + i);
    const fade = 1 - (y / hz) * 0.8;
    const a = (0.25 + 0.75 * m) * fade * twinkle;
    const c = starColours[i % starColours.length] as Rgb;
    const r = (0.4 + m * 1.6) * (u / 1024);
    ctx.fillStyle = css(c, a);
    if (r < 0.9) ctx.fillRect(x, y, r * 2, r * 2);
    else {
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
      if (m > 0.55) {
        const gl = ctx.createRadialGradient(x, y, 0, x, y, r * 8);
        gl.addColorStop(0, css(c, a * 0.45));
        gl.addColorStop(1, css(c, 0));
        ctx.fillStyle = gl;
        ctx.fillRect(x - r * 8, y - r * 8, r * 16, r * 16);
      }
    }
  }
}

function drawNebula(ctx: Ctx, plan: ScenePlan, w: number, h: number): void {
  const u = Math.max(w, h);
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  for (const b of plan.nebula) {
    const x = b.x * w;
    const y = b.y * h;
    const r = b.r * u;
    const g = ctx.createRadialGradient(x, y, 0, x, y, r);
    g.addColorStop(0, css(b.colour, b.alpha));
    g.addColorStop(0.4, css(b.colour, b.alpha * 0.45));
    g.addColorStop(1, css(b.colour, 0));
    ctx.fillStyle = g;
    ctx.fillRect(x - r, y - r, r * 2, r * 2);
  }
  // Dark dust lanes across the glow.
  const rng = createRng(plan.seed ^ 0xd057);
  ctx.globalCompositeOperation = 'multiply';
  for (let i = 0; i < 5; i++) {
    const b = plan.nebula[i % plan.nebula.length] as Blob;
    const x = (b.x + rng.gauss() * 0.05) * w;
    const y = (b.y + rng.gauss() * 0.05) * h;
    const r = b.r * u * 0.5;
    const g = ctx.createRadialGradient(x, y, 0, x, y, r);
    g.addColorStop(0, css(plan.palette.skyTop, 0.55));
    g.addColorStop(1, css(plan.palette.skyTop, 0));
    ctx.fillStyle = g;
    ctx.fillRect(x - r, y - r, r * 2, r * 2);
  }
  ctx.restore();
}

function drawAurora(ctx: Ctx, plan: ScenePlan, w: number, h: number, time: number): void {
  const rng = createRng(plan.seed ^ 0xa0a0);
  const green = plan.traits.colours[0] ?? hex('#3dffa8');
  const second = plan.traits.colours[1] ?? hex('#b05cff');
  const hz = plan.horizon * h;
  const len = h * 0.28;
  const g = ctx.createLinearGradient(0, 0, 0, len);
  g.addColorStop(0, css(second, 0));
  g.addColorStop(0.35, css(second, 0.16));
  g.addColorStop(0.8, css(green, 0.42));
  g.addColorStop(1, css(green, 0));
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  ctx.fillStyle = g;
  const seedA = rng.u32();
  for (let band = 0; band < 2; band++) {
    const base = hz * (0.28 + band * 0.14);
    const step = Math.max(2, Math.round(w / 400));
    for (let x = 0; x < w; x += step) {
      const u = x / w;
      const y = base + fbm1(seedA + band * 99, u * 2.5 + time * 0.05, 3) * h * 0.12 + Math.sin(u * 9 + band + time * 0.6) * h * 0.02;
      const k = 0.5 + 0.5 * fbm1(seedA + 7 + band, u * 8 + time * 0.3, 2);
      ctx.globalAlpha = Math.max(0, k);
      ctx.save();
      ctx.translate(0, y - len * 0.8);
      ctx.fillRect(x, 0, step, len);
      ctx.restore();
    }
  }
  ctx.restore();
}

function drawRays(ctx: Ctx, plan: ScenePlan, w: number, h: number): void {
  const rng = createRng(plan.seed ^ 0x4a75);
  const lx = plan.light.x * w;
  const ly = plan.light.y * h;
  const reach = Math.hypot(w, h);
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  for (let i = 0; i < 9; i++) {
    const a = rng.range(0, Math.PI) + (plan.light.y > 0.4 ? Math.PI : 0) * 0 + Math.PI * 0.05;
    const spread = rng.range(0.015, 0.05);
    const g = ctx.createRadialGradient(lx, ly, 0, lx, ly, reach);
    const alpha = rng.range(0.05, 0.12);
    g.addColorStop(0, css(plan.palette.glow, alpha));
    g.addColorStop(1, css(plan.palette.glow, 0));
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.moveTo(lx, ly);
    ctx.lineTo(lx + Math.cos(a - spread) * reach, ly + Math.sin(a - spread) * reach);
    ctx.lineTo(lx + Math.cos(a + spread) * reach, ly + Math.sin(a + spread) * reach);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}

export function drawLight(ctx: Ctx, plan: ScenePlan, w: number, h: number): void {
  const { light, palette: p } = plan;
  if (light.kind === 'none') return;
  const u = Math.min(w, h);
  const x = light.x * w;
  const y = light.y * h;
  const r = light.r * u;
  // Halo.
  const halo = ctx.createRadialGradient(x, y, r * 0.8, x, y, r * (light.kind === 'moon' ? 4 : 5));
  halo.addColorStop(0, css(light.kind === 'moon' ? p.light : p.glow, light.kind === 'moon' ? 0.35 : 0.65));
  halo.addColorStop(1, css(p.glow, 0));
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  ctx.fillStyle = halo;
  ctx.fillRect(x - r * 5, y - r * 5, r * 10, r * 10);
  ctx.restore();

  if (plan.styles.has('neon') && light.kind === 'sun') {
    // The synthwave sun: a yellow-to-pink disc cut by bands that widen toward the bottom.
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.clip();
    const g = ctx.createLinearGradient(0, y - r, 0, y + r);
    g.addColorStop(0, css(hex('#ffe45c')));
    g.addColorStop(0.55, css(hex('#ff7a3d')));
    g.addColorStop(1, css(hex('#ff2f8f')));
    ctx.fillStyle = g;
    ctx.fillRect(x - r, y - r, r * 2, r * 2);
    ctx.globalCompositeOperation = 'destination-out';
    for (let i = 0; i < 7; i++) {
      const t = i / 7;
      const yy = y + r * (0.05 + t * 0.95);
      ctx.fillRect(x - r, yy, r * 2, r * (0.02 + t * 0.07));
    }
    ctx.restore();
    return;
  }
  const disc = ctx.createRadialGradient(x - r * 0.25, y - r * 0.25, r * 0.1, x, y, r);
  if (light.kind === 'moon') {
    disc.addColorStop(0, css(mix(p.light, hex('#ffffff'), 0.5)));
    disc.addColorStop(1, css(mix(p.light, p.skyMid, 0.25)));
  } else {
    disc.addColorStop(0, css(mix(p.light, hex('#ffffff'), 0.6)));
    disc.addColorStop(1, css(p.light));
  }
  ctx.fillStyle = disc;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
  if (light.kind === 'moon') {
    // A few maria, very faint.
    const rng = createRng(plan.seed ^ 0x300);
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.clip();
    for (let i = 0; i < 6; i++) {
      ctx.fillStyle = css(p.skyMid, rng.range(0.06, 0.14));
      ctx.beginPath();
      ctx.arc(x + rng.gauss() * r * 0.4, y + rng.gauss() * r * 0.4, r * rng.range(0.12, 0.35), 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.restore();
  }
}

function drawPlanet(ctx: Ctx, plan: ScenePlan, w: number, h: number): void {
  const pl = plan.planet;
  if (!pl) return;
  const u = Math.min(w, h);
  const x = pl.x * w;
  const y = pl.y * h;
  const r = pl.r * u;
  const lightDir = plan.light.x * w < x ? -1 : 1;
  const ring = (front: boolean): void => {
    ctx.save();
    ctx.translate(x, y);
    ctx.rotate(pl.tilt);
    ctx.scale(1, 0.22);
    ctx.beginPath();
    ctx.arc(0, 0, r * 1.75, front ? 0 : Math.PI, front ? Math.PI : Math.PI * 2);
    ctx.lineWidth = r * 0.28;
    ctx.strokeStyle = css(mix(pl.colour, hex('#ffffff'), 0.4), 0.55);
    ctx.stroke();
    ctx.lineWidth = r * 0.06;
    ctx.strokeStyle = css(mix(pl.colour, hex('#ffffff'), 0.7), 0.6);
    ctx.beginPath();
    ctx.arc(0, 0, r * 1.5, front ? 0 : Math.PI, front ? Math.PI : Math.PI * 2);
    ctx.stroke();
    ctx.restore();
  };
  if (pl.ring) ring(false);
  const g = ctx.createRadialGradient(x + lightDir * r * 0.45, y - r * 0.35, r * 0.05, x, y, r * 1.05);
  g.addColorStop(0, css(mix(pl.colour, hex('#ffffff'), 0.45)));
  g.addColorStop(0.5, css(pl.colour));
  g.addColorStop(1, css(scale(pl.colour, 0.12)));
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
  // Bands.
  const rng = createRng(plan.seed ^ 0x91a);
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.clip();
  ctx.translate(x, y);
  ctx.rotate(pl.tilt);
  ctx.globalCompositeOperation = 'soft-light';
  for (let i = 0; i < 7; i++) {
    ctx.fillStyle = css(rng.chance(0.5) ? hex('#ffffff') : hex('#000000'), rng.range(0.12, 0.3));
    ctx.fillRect(-r, -r + rng.range(0, 2 * r), 2 * r, r * rng.range(0.04, 0.16));
  }
  ctx.restore();
  // Atmosphere rim.
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  const rim = ctx.createRadialGradient(x, y, r * 0.92, x, y, r * 1.15);
  rim.addColorStop(0, css(mix(pl.colour, hex('#ffffff'), 0.5), 0.5));
  rim.addColorStop(1, css(pl.colour, 0));
  ctx.fillStyle = rim;
  ctx.fillRect(x - r * 1.2, y - r * 1.2, r * 2.4, r * 2.4);
  ctx.restore();
  if (pl.ring) ring(true);
}

export function drawClouds(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0, speed = 0): void {
  const p = plan.palette;
  const lighting = plan.traits.lighting;
  const top = lighting === 'sunset' || lighting === 'dawn' ? mix(p.glow, p.light, 0.3) : lighting === 'night' ? mix(p.skyMid, p.light, 0.25) : mix(p.light, hex('#ffffff'), 0.5);
  const under = lighting === 'sunset' ? mix(p.skyMid, p.skyTop, 0.3) : lighting === 'storm' ? scale(p.skyMid, 0.7) : mix(p.skyMid, p.haze, 0.5);
  for (const c of plan.clouds) {
    const rng = createRng(c.seed);
    let cx = ((c.x + time * speed * (0.5 + (c.seed % 100) / 200)) % 1.3) * w;
    if (cx < -0.15 * w) cx += 1.3 * w;
    const cy = c.y * h;
    const cw = c.w * w;
    const ch = c.h * h;
    ctx.save();
    if (c.kind === 'streak') {
      for (let i = 0; i < 6; i++) {
        const ox = rng.gauss() * cw * 0.2;
        const oy = rng.gauss() * ch * 0.6;
        const ew = cw * rng.range(0.35, 0.7);
        const eh = ch * rng.range(0.4, 1);
        const g = ctx.createLinearGradient(0, cy + oy - eh, 0, cy + oy + eh);
        g.addColorStop(0, css(under, 0.0));
        g.addColorStop(0.5, css(under, 0.45));
        g.addColorStop(0.75, css(top, 0.65));
        g.addColorStop(1, css(top, 0));
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.ellipse(cx + ox, cy + oy, ew, eh, 0, 0, Math.PI * 2);
        ctx.fill();
      }
    } else {
      // Cumulus: a cluster of discs, lit from above, shaded beneath.
      const puffs: [number, number, number][] = [];
      const n = rng.int(6, 11);
      for (let i = 0; i < n; i++) {
        const t = i / (n - 1) - 0.5;
        const r = ch * (0.55 + (1 - Math.abs(t) * 1.6) * 0.6) * rng.range(0.8, 1.2);
        puffs.push([cx + t * cw, cy - r * 0.35 + rng.range(-0.1, 0.1) * ch, r]);
      }
      ctx.fillStyle = css(under, 0.85);
      for (const [x, y, r] of puffs) {
        ctx.beginPath();
        ctx.arc(x, y + r * 0.18, r, 0, Math.PI * 2);
        ctx.fill();
      }
      for (const [x, y, r] of puffs) {
        const g = ctx.createRadialGradient(x, y - r * 0.5, r * 0.1, x, y, r);
        g.addColorStop(0, css(top, 0.95));
        g.addColorStop(1, css(mix(top, under, 0.5), 0.0));
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.arc(x, y, r, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.restore();
  }
}

/** One terrain layer, with its light, its snow, and the mist that settles at its foot. */
export function drawTerrainLayer(ctx: Ctx, plan: ScenePlan, layer: TerrainLayer, w: number, h: number, next: TerrainLayer | undefined): void {
  const p = plan.palette;
  const bottom = plan.onHorizon ? plan.horizon * h + 1 : h + 2;
  if (layer.kind === 'city') return drawCity(ctx, plan, layer, w, h, bottom);
  if (layer.kind === 'trees') {
    drawTrees(ctx, plan, layer, w, h, bottom);
  } else {
    const step = Math.max(2, Math.round(w / 360));
    const ys = profile(layer, w, h, step);
    const watercolor = plan.styles.has('watercolor');
    if (watercolor) {
      // Pigment pools at the edges: the same wash laid three times with a wandering edge.
      for (let k = 0; k < 3; k++) {
        const jit = new Float32Array(ys.length);
        for (let i = 0; i < ys.length; i++) jit[i] = (ys[i] as number) + fbm1(layer.seed + k * 17, i * 0.05, 3) * h * 0.008;
        pathProfile(ctx, jit, step, bottom);
        ctx.fillStyle = css(layer.colour, 0.45);
        ctx.fill();
      }
    }
    pathProfile(ctx, ys, step, bottom);
    let minY = Infinity;
    for (const y of ys) minY = Math.min(minY, y);
    const g = ctx.createLinearGradient(0, minY, 0, Math.min(bottom, minY + h * 0.5));
    const flat = plan.styles.has('minimal') || plan.styles.has('flat');
    g.addColorStop(0, css(flat ? layer.colour : mix(layer.colour, p.haze, 0.08), watercolor ? 0.6 : 1));
    g.addColorStop(1, css(flat ? layer.colour : scale(layer.colour, 0.82), watercolor ? 0.6 : 1));
    ctx.fillStyle = g;
    ctx.fill();

    // Faces turned to the light: the layer is laid in a lit colour, then again slightly shifted
    // away from the light in its own colour. What stays lit is a band along every slope that faces
    // the light, wider where the slope is steeper, the way a low sun catches ridges.
    if (layer.lit > 0.05 && !flat) {
      const towardLight = plan.light.x < 0.5 ? -1 : 1;
      const litColour = mix(layer.colour, layer.kind === 'dunes' ? mix(p.light, p.glow, 0.5) : p.glow, Math.min(0.85, layer.lit * 1.3));
      const u = Math.min(w, h);
      const shifts = [0.004, 0.01, 0.02];
      ctx.save();
      pathProfile(ctx, ys, step, bottom);
      ctx.clip();
      ctx.fillStyle = css(litColour);
      ctx.fillRect(0, minY - 2, w, bottom - minY + 4);
      shifts.forEach((sh, k) => {
        ctx.save();
        ctx.translate(-towardLight * sh * u, sh * u * 0.35);
        pathProfile(ctx, ys, step, bottom + u);
        ctx.fillStyle = k === shifts.length - 1 ? g : css(mix(litColour, layer.colour, 0.4 + k * 0.3));
        ctx.fill();
        ctx.restore();
      });
      ctx.restore();
    }
    if (layer.snow) {
      ctx.save();
      pathProfile(ctx, ys, step, bottom);
      ctx.clip();
      ctx.beginPath();
      ctx.moveTo(-step, 0);
      const snowLine = minY + h * layer.amplitude * 0.42;
      for (let i = 0; i < ys.length; i++) {
        const y = snowLine + fbm1(layer.seed ^ 0x5a0, ((i * step) / w) * 14, 3) * h * layer.amplitude * 0.22;
        ctx.lineTo((i - 1) * step, y);
      }
      ctx.lineTo(w + step, 0);
      ctx.closePath();
      const sg = ctx.createLinearGradient(0, minY, 0, snowLine + h * layer.amplitude * 0.4);
      const snow = mix(hex('#f4f8ff'), p.haze, 0.25 + (1 - layer.depth) * 0.2);
      sg.addColorStop(0, css(snow, 0.95));
      sg.addColorStop(1, css(mix(snow, p.skyMid, 0.4), 0.75));
      ctx.fillStyle = sg;
      ctx.fill();
      ctx.restore();
    }
    if (plan.styles.has('neon')) {
      ctx.save();
      ctx.beginPath();
      for (let i = 0; i < ys.length; i++) ctx.lineTo((i - 1) * step, ys[i] as number);
      const c = p.accents[(layer.seed % 2) + 0] ?? hex('#ff2bd6');
      glowStroke(ctx, c, Math.max(1.5, Math.min(w, h) / 450), 0.9);
      ctx.restore();
    }
  }
  drawMist(ctx, plan, layer, w, h, next);
}

function drawMist(ctx: Ctx, plan: ScenePlan, layer: TerrainLayer, w: number, h: number, next: TerrainLayer | undefined): void {
  if (plan.styles.has('minimal') && plan.traits.lighting !== 'fog') return;
  const lighting = plan.traits.lighting;
  const strength = lighting === 'fog' ? 0.7 : lighting === 'night' ? 0.28 : plan.styles.has('neon') ? 0.3 : 0.38;
  const top = layer.crest * h - layer.amplitude * h * 0.2;
  const bottom = next ? next.crest * h : plan.onHorizon ? plan.horizon * h : h;
  if (bottom <= top) return;
  const g = ctx.createLinearGradient(0, top, 0, bottom);
  g.addColorStop(0, css(plan.palette.haze, 0));
  g.addColorStop(1, css(plan.palette.haze, strength * (1 - layer.depth * 0.5)));
  ctx.fillStyle = g;
  ctx.fillRect(0, top, w, bottom - top + 1);
}

function drawCity(ctx: Ctx, plan: ScenePlan, layer: TerrainLayer, w: number, h: number, bottom: number): void {
  const rng = createRng(layer.seed);
  const p = plan.palette;
  const u = Math.min(w, h);
  const base = plan.onHorizon ? plan.horizon * h : Math.min(h, (layer.crest + layer.amplitude * 0.6) * h);
  const night = plan.traits.lighting === 'night' || plan.styles.has('neon');
  const towardLight = plan.light.x < 0.5 ? -1 : 1;
  const buildings: { x: number; y: number; bw: number }[] = [];
  let x = -rng.range(0, 0.05) * w;
  const widthScale = 0.6 + layer.depth * 0.9;
  while (x < w) {
    const bw = w * rng.range(0.028, 0.07) * widthScale;
    const tall = rng.chance(0.18) ? rng.range(1.3, 1.9) : rng.range(0.45, 1.05);
    const bh = layer.amplitude * h * tall * (0.7 + 0.3 * fbm1(layer.seed, x / w * 3, 2));
    buildings.push({ x, y: base - bh, bw });
    x += bw + (rng.chance(0.2) ? rng.range(0, 0.01) * w : 0);
  }
  ctx.fillStyle = css(layer.colour);
  ctx.beginPath();
  for (const b of buildings) {
    ctx.rect(b.x, b.y, b.bw + 0.5, bottom - b.y);
    const r = createRng(Math.round(b.x * 31) ^ layer.seed);
    const roof = r.next();
    if (roof < 0.25) {
      // Stepped top.
      ctx.rect(b.x + b.bw * 0.2, b.y - b.bw * 0.35, b.bw * 0.6, b.bw * 0.36);
    } else if (roof < 0.4) {
      // Spire.
      ctx.moveTo(b.x + b.bw * 0.5, b.y - b.bw * 1.4);
      ctx.lineTo(b.x + b.bw * 0.62, b.y);
      ctx.lineTo(b.x + b.bw * 0.38, b.y);
      ctx.closePath();
    } else if (roof < 0.55) {
      ctx.rect(b.x + b.bw * 0.48, b.y - b.bw * 0.8, Math.max(1, u / 700), b.bw * 0.8);
    }
  }
  ctx.fill();
  // Light on the side facing the light source.
  if (!night || plan.styles.has('neon')) {
    ctx.fillStyle = css(plan.styles.has('neon') ? (p.accents[1] ?? p.glow) : p.glow, night ? 0.5 : 0.22 * (0.5 + layer.depth));
    for (const b of buildings) {
      const sw = Math.max(1, b.bw * (plan.styles.has('neon') ? 0.04 : 0.18));
      ctx.fillRect(towardLight < 0 ? b.x : b.x + b.bw - sw, b.y, sw, bottom - b.y);
    }
  }
  // Windows.
  if (layer.depth > 0.2) {
    const ww = Math.max(1, u * 0.004 * widthScale);
    const wh = ww * 1.5;
    const warm = p.accents[0] ?? hex('#ffd36b');
    const colours = plan.styles.has('neon') ? p.accents.slice(0, 4) : [warm, mix(warm, hex('#ffffff'), 0.4)];
    for (const b of buildings) {
      const cols = Math.max(2, Math.floor(b.bw / (ww * 2.4)));
      const gap = (b.bw - cols * ww) / (cols + 1);
      for (let y = b.y + wh * 2; y < base - wh; y += wh * 2) {
        for (let c = 0; c < cols; c++) {
          const on = rng.next();
          if (night ? on < 0.32 : on < 0.5) {
            ctx.fillStyle = night ? css(rng.pick(colours), rng.range(0.6, 1)) : css(mix(layer.colour, p.skyLow, 0.5), 0.5);
            ctx.fillRect(b.x + gap + c * (ww + gap), y, ww, wh);
          }
        }
      }
    }
  }
  drawMist(ctx, plan, layer, w, h, undefined);
}

function drawTrees(ctx: Ctx, plan: ScenePlan, layer: TerrainLayer, w: number, h: number, bottom: number): void {
  const rng = createRng(layer.seed);
  const step = Math.max(2, Math.round(w / 300));
  const ground = profile({ ...layer, kind: 'hills', amplitude: layer.amplitude * 0.5 }, w, h, step);
  const treeH = h * (0.035 + layer.depth * 0.09);
  const spacing = treeH * (layer.treeKind === 'pine' ? 0.28 : 0.5);
  ctx.fillStyle = css(layer.colour);
  // The ground under the trees.
  pathProfile(ctx, ground, step, bottom);
  ctx.fill();
  ctx.beginPath();
  for (let x = -spacing; x < w + spacing; x += spacing * rng.range(0.6, 1.3)) {
    const gi = Math.min(ground.length - 1, Math.max(0, Math.round(x / step) + 1));
    const gy = (ground[gi] as number) + treeH * 0.1;
    const th = treeH * rng.range(0.6, 1.35);
    if (layer.treeKind === 'pine') {
      const tw = th * rng.range(0.28, 0.38);
      const tiers = 4;
      ctx.moveTo(x, gy - th);
      for (let t = 1; t <= tiers; t++) {
        const yy = gy - th + (th * 0.92 * t) / tiers;
        const ww = (tw * t) / tiers;
        ctx.lineTo(x + ww, yy);
        if (t < tiers) ctx.lineTo(x + ww * 0.45, yy);
      }
      ctx.lineTo(x + tw * 0.08, gy - th * 0.08);
      ctx.lineTo(x + tw * 0.08, gy + 2);
      ctx.lineTo(x - tw * 0.08, gy + 2);
      ctx.lineTo(x - tw * 0.08, gy - th * 0.08);
      for (let t = tiers; t >= 1; t--) {
        const yy = gy - th + (th * 0.92 * t) / tiers;
        const ww = (tw * t) / tiers;
        if (t < tiers) ctx.lineTo(x - ww * 0.45, yy);
        ctx.lineTo(x - ww, yy);
      }
      ctx.closePath();
    } else {
      const r = th * rng.range(0.28, 0.4);
      ctx.moveTo(x + r, gy - th + r);
      ctx.arc(x, gy - th + r, r, 0, Math.PI * 2);
      ctx.moveTo(x + r * 0.8 + r * 0.5, gy - th + r * 1.5);
      ctx.arc(x + r * 0.5, gy - th + r * 1.5, r * 0.8, 0, Math.PI * 2);
      ctx.moveTo(x - r * 0.5 + r * 0.8, gy - th + r * 1.5);
      ctx.arc(x - r * 0.5, gy - th + r * 1.5, r * 0.8, 0, Math.PI * 2);
      ctx.rect(x - th * 0.03, gy - th + r * 2, th * 0.06, th - r * 2 + 2);
    }
  }
  ctx.fill();
  // Rim light on the tree tops from the light's side.
  if (layer.lit > 0.1 && !plan.styles.has('minimal')) {
    ctx.save();
    ctx.clip();
    const towardLight = plan.light.x < 0.5 ? -1 : 1;
    const g = ctx.createLinearGradient(towardLight < 0 ? 0 : w, 0, towardLight < 0 ? w : 0, 0);
    g.addColorStop(0, css(plan.palette.glow, layer.lit * 0.35));
    g.addColorStop(1, css(plan.palette.glow, layer.lit * 0.08));
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
    ctx.restore();
  }
}

/** The water plane: sky colour at the horizon, deep colour near the viewer, the world mirrored in it, ripples and glitter. */
export function drawWater(ctx: Ctx, canvas: Canvas, plan: ScenePlan, w: number, h: number, time = 0, withGlitter = true): void {
  if (!plan.water) return;
  const p = plan.palette;
  const hz = Math.round(plan.horizon * h);
  const below = h - hz;
  // Mirror what is above the horizon.
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.translate(0, hz * 2);
  ctx.scale(1, -1);
  ctx.drawImage(canvas, 0, Math.max(0, hz - below), w, Math.min(hz, below), 0, Math.max(0, hz - below), w, Math.min(hz, below));
  ctx.restore();
  const g = ctx.createLinearGradient(0, hz, 0, h);
  g.addColorStop(0, css(mix(p.water, p.skyLow, 0.35), 0.45));
  g.addColorStop(0.4, css(p.water, 0.7));
  g.addColorStop(1, css(p.waterDeep, 0.92));
  ctx.fillStyle = g;
  ctx.fillRect(0, hz, w, below);

  if (withGlitter) drawGlitter(ctx, plan, w, h, time);
  if (plan.foreground) {
    const rng = createRng(plan.seed ^ 0x5407e);
    // A dark shore in one corner frames the view.
    const left = plan.light.x > 0.5;
    const fg = rng.fork('shore');
    ctx.fillStyle = css(p.shadow);
    ctx.beginPath();
    const x0 = left ? 0 : w;
    const dir = left ? 1 : -1;
    ctx.moveTo(x0, h);
    ctx.lineTo(x0, h - below * fg.range(0.35, 0.6));
    const n = 24;
    const reach = w * fg.range(0.25, 0.4);
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const y = h - below * (0.45 * (1 - t * t)) + fbm1(fg.u32(), t * 4, 3) * below * 0.05;
      ctx.lineTo(x0 + dir * t * reach, y);
    }
    ctx.lineTo(x0 + dir * reach, h);
    ctx.closePath();
    ctx.fill();
  }
}

/** The moving part of water: ripples drifting and glitter under the light. */
export function drawGlitter(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  if (!plan.water) return;
  const p = plan.palette;
  const hz = Math.round(plan.horizon * h);
  const below = h - hz;
  const rng = createRng(plan.seed ^ 0x3a7e5);
  // Ripples: thin lines, farther apart as they come closer.
  const u = Math.min(w, h);
  for (let i = 0; i < 110; i++) {
    const t = Math.pow(rng.next(), 1.6);
    const y = hz + t * below;
    const len = w * rng.range(0.03, 0.2) * (0.3 + t);
    const x = ((rng.next() * w * 1.2 + time * (20 + t * 40) * (i % 2 ? 1 : -1)) % (w * 1.2)) - w * 0.1;
    ctx.fillStyle = css(i % 3 === 0 ? p.waterDeep : mix(p.skyLow, p.light, 0.3), 0.12 + 0.2 * t);
    ctx.fillRect(x, y, len, Math.max(1, u * 0.0015 * (0.5 + t * 2)));
  }
  // Glitter under the light.
  if (plan.light.kind !== 'none') {
    const lx = plan.light.x * w;
    ctx.save();
    ctx.globalCompositeOperation = 'screen';
    const n = plan.light.kind === 'moon' ? 70 : 140;
    for (let i = 0; i < n; i++) {
      const t = Math.pow(rng.next(), 1.3);
      const y = hz + t * below;
      const spread = (plan.light.r * u * 1.2 + t * w * 0.1) * rng.gauss() * 0.6;
      const shimmer = 0.5 + 0.5 * Math.sin(time * 6 + i * 1.7);
      const len = u * rng.range(0.01, 0.05) * (0.4 + t);
      ctx.fillStyle = css(mix(p.light, p.glow, 0.3), (0.25 + 0.5 * (1 - t)) * shimmer);
      ctx.fillRect(lx + spread - len / 2, y, len, Math.max(1, u * 0.002 * (0.5 + t)));
    }
    ctx.restore();
  }
}

export function drawNeonGrid(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  if (!plan.neonGrid) return;
  const p = plan.palette;
  const hz = plan.horizon * h;
  const floor = ctx.createLinearGradient(0, hz, 0, h);
  floor.addColorStop(0, css(hex('#1a0530')));
  floor.addColorStop(1, css(hex('#050010')));
  // The grid floor covers the foreground below the nearest layer's foot.
  const c = p.accents[1] ?? hex('#00e5ff');
  const m = p.accents[0] ?? hex('#ff2bd6');
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, hz, w, h - hz);
  ctx.clip();
  ctx.fillStyle = floor;
  ctx.globalAlpha = 0.92;
  ctx.fillRect(0, hz, w, h - hz);
  ctx.globalAlpha = 1;
  const lw = Math.max(1, Math.min(w, h) / 600);
  const vx = w / 2;
  ctx.beginPath();
  for (let i = -14; i <= 14; i++) {
    ctx.moveTo(vx + i * w * 0.015, hz);
    ctx.lineTo(vx + i * w * 0.2, h);
  }
  glowStroke(ctx, c, lw, 0.8);
  const phase = (time * 0.5) % 1;
  for (let k = 0; k < 14; k++) {
    const t = (k + phase) / 14;
    const y = hz + (h - hz) * t * t;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(w, y);
    glowStroke(ctx, mix(c, m, 1 - t), lw * (0.6 + t), 0.35 + 0.6 * t);
  }
  ctx.restore();
  const glow = ctx.createLinearGradient(0, hz - h * 0.02, 0, hz + h * 0.05);
  glow.addColorStop(0, css(m, 0));
  glow.addColorStop(0.4, css(m, 0.55));
  glow.addColorStop(1, css(m, 0));
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  ctx.fillStyle = glow;
  ctx.fillRect(0, hz - h * 0.02, w, h * 0.07);
  ctx.restore();
}

export function drawBirds(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const b = plan.birds;
  if (!b) return;
  const rng = createRng(plan.seed ^ 0xb1d);
  const u = Math.min(w, h);
  ctx.save();
  ctx.strokeStyle = css(mix(plan.palette.shadow, plan.palette.skyMid, 0.25), 0.85);
  ctx.lineWidth = Math.max(1, u / 700);
  ctx.lineCap = 'round';
  for (let i = 0; i < b.n; i++) {
    const x = (b.x + rng.gauss() * 0.06 + time * 0.03) * w;
    const y = (b.y + rng.gauss() * 0.04) * h;
    const s = u * rng.range(0.006, 0.014);
    const flap = Math.sin(time * 9 + i * 2.1) * 0.35;
    ctx.beginPath();
    ctx.moveTo(x - s, y - s * (0.3 + flap));
    ctx.quadraticCurveTo(x - s * 0.4, y - s * 0.45, x, y);
    ctx.quadraticCurveTo(x + s * 0.4, y - s * 0.45, x + s, y - s * (0.3 + flap));
    ctx.stroke();
  }
  ctx.restore();
}

/** A face in profile, in head-radius units, facing +x; the outline runs from the bottom front round to the bottom back. */
const PROFILE: readonly (readonly [number, number])[] = [
  [1.9, 6], [1.75, 3.2], [1.55, 2.45], [1.05, 2.05], [0.55, 1.75], [0.42, 1.35], [0.4, 1.08], // chest, throat
  [0.55, 0.98], [0.74, 0.9], [0.74, 0.76], [0.7, 0.7], // jaw, chin
  [0.8, 0.62], [0.76, 0.55], [0.82, 0.47], [0.8, 0.36], // lips
  [0.98, 0.24], [0.93, 0.16], [0.79, -0.06], // nose
  [0.8, -0.22], [0.72, -0.36], [0.66, -0.66], [0.42, -0.94], [0.0, -1.06], // brow, forehead, crown
  [-0.5, -0.96], [-0.86, -0.6], [-0.98, -0.1], [-0.9, 0.4], [-0.62, 0.92], // back of the head
  [-0.52, 1.3], [-0.75, 1.75], [-1.6, 2.1], [-2.1, 2.6], [-2.2, 3.2], [-2.3, 6], // nape, shoulder
];

const LONG_HAIR: readonly (readonly [number, number])[] = [
  [0.5, -0.98], [0.0, -1.14], [-0.6, -1.02], [-1.05, -0.55], [-1.15, 0.2], [-1.1, 1.0], [-1.0, 1.7], [-0.55, 1.9],
  [-0.4, 1.2], [-0.5, 0.5], [-0.2, -0.3], [0.35, -0.75],
];

const SHORT_HAIR: readonly (readonly [number, number])[] = [
  [0.62, -0.72], [0.3, -1.08], [-0.3, -1.12], [-0.85, -0.82], [-1.02, -0.2], [-0.92, 0.3], [-0.7, 0.2], [-0.3, -0.45], [0.3, -0.62],
];

/** A smooth closed curve through points (quadratic curves between midpoints). */
function smoothPath(ctx: Ctx, pts: readonly (readonly [number, number])[], tx: (p: readonly [number, number]) => [number, number], closed = true): void {
  const P = pts.map(tx);
  const n = P.length;
  const mid = (i: number): [number, number] => {
    const a = P[i % n] as [number, number];
    const b = P[(i + 1) % n] as [number, number];
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  };
  const m0 = mid(0);
  ctx.moveTo(m0[0], m0[1]);
  const last = closed ? n : n - 1;
  for (let i = 1; i <= last; i++) {
    const c = P[i % n] as [number, number];
    const m = mid(i);
    ctx.quadraticCurveTo(c[0], c[1], m[0], m[1]);
  }
  ctx.closePath();
}

/** A figure in profile, back-lit, with a rim of light on the edge toward the light. */
export function drawFigure(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const fig = plan.figure;
  if (!fig) return;
  const p = plan.palette;
  const u = Math.min(w, h);
  const r = u * 0.15 * fig.size;
  const breathe = Math.sin(time * 1.2) * r * 0.01;
  const cx = fig.x * w;
  const cy = fig.y * h + breathe;
  // The face looks toward the light.
  const dir = plan.light.x >= fig.x ? 1 : -1;
  const words = new Set(plan.traits.words);
  const longHair = words.has('woman') || words.has('girl') || words.has('lady') || (!words.has('man') && !words.has('boy') && (plan.seed & 1) === 1);
  const tx = (dx: number, dy: number) => (pt: readonly [number, number]): [number, number] => [cx + pt[0] * r * dir + dx, cy + pt[1] * r + dy];
  const outline = (dx: number, dy: number): void => {
    ctx.beginPath();
    smoothPath(ctx, PROFILE, tx(dx, dy));
    smoothPath(ctx, longHair ? LONG_HAIR : SHORT_HAIR, tx(dx, dy));
  };
  const rim = plan.styles.has('neon') ? (p.accents[1] ?? p.light) : mix(p.light, p.glow, 0.35);
  ctx.save();
  ctx.filter = `blur(${Math.max(1, u / 260).toFixed(1)}px)`;
  ctx.fillStyle = css(rim, 0.95);
  outline(dir * u * 0.007, -u * 0.003);
  ctx.fill('nonzero');
  ctx.restore();
  const body = ctx.createLinearGradient(0, cy - r, 0, h);
  body.addColorStop(0, css(mix(p.shadow, p.land[2], 0.6)));
  body.addColorStop(1, css(p.shadow));
  ctx.fillStyle = body;
  outline(0, 0);
  ctx.fill('nonzero');
  // Soft light across the face side.
  ctx.save();
  outline(0, 0);
  ctx.clip('nonzero');
  const kx = cx + dir * r * 1.1;
  const key = ctx.createRadialGradient(kx, cy, r * 0.1, kx, cy, r * 1.8);
  key.addColorStop(0, css(mix(p.glow, p.light, 0.5), 0.3));
  key.addColorStop(1, css(p.glow, 0));
  ctx.fillStyle = key;
  ctx.fillRect(0, 0, w, h);
  ctx.restore();
}

/** Backdrop for portraits: a studio gradient with out-of-focus lights. */
export function drawBackdrop(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const p = plan.palette;
  const u = Math.max(w, h);
  const lx = plan.light.x * w;
  const ly = plan.light.y * h;
  const g = ctx.createRadialGradient(lx, ly, 0, lx, ly, u * 0.95);
  g.addColorStop(0, css(mix(p.skyLow, p.glow, 0.4)));
  g.addColorStop(0.45, css(p.skyMid));
  g.addColorStop(1, css(mix(p.skyTop, p.shadow, 0.5)));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  const rng = createRng(plan.seed ^ 0xb0ce);
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  const n = plan.styles.has('minimal') ? 4 : 18;
  for (let i = 0; i < n; i++) {
    const x = (rng.next() + time * 0.01 * (i % 3)) % 1 * w;
    const y = rng.range(0.05, 0.75) * h;
    const r = Math.min(w, h) * rng.range(0.02, 0.07);
    const c = rng.pick(p.accents);
    const bg = ctx.createRadialGradient(x, y, r * 0.6, x, y, r);
    bg.addColorStop(0, css(c, rng.range(0.12, 0.3)));
    bg.addColorStop(0.85, css(c, rng.range(0.15, 0.35)));
    bg.addColorStop(1, css(c, 0));
    ctx.fillStyle = bg;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** Abstract compositions: Bauhaus-like flat shapes on paper, or glowing ribbons and orbs on dark. */
export function drawAbstract(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const p = plan.palette;
  const u = Math.min(w, h);
  const lead = plan.traits.colours[0];
  if (plan.abstractMode === 'bauhaus') {
    // Named colours print on light paper; otherwise the paper follows the light (dark at night).
    const paper = lead ? mix(hex('#f3eee4'), lead, 0.14) : p.paper;
    ctx.fillStyle = css(plan.styles.has('neon') ? p.shadow : paper);
    ctx.fillRect(0, 0, w, h);
    // A faint construction grid.
    ctx.strokeStyle = css(p.shadow, 0.06);
    ctx.lineWidth = Math.max(1, u / 900);
    for (let i = 1; i < 6; i++) {
      ctx.beginPath();
      ctx.moveTo((i * w) / 6, 0);
      ctx.lineTo((i * w) / 6, h);
      ctx.moveTo(0, (i * h) / 6);
      ctx.lineTo(w, (i * h) / 6);
      ctx.stroke();
    }
  } else {
    const g = ctx.createLinearGradient(0, 0, w * 0.3, h);
    g.addColorStop(0, css(lead ? mix(p.skyTop, lead, 0.45) : p.skyTop));
    g.addColorStop(0.6, css(mix(lead ? mix(p.skyMid, lead, 0.4) : p.skyMid, p.shadow, 0.55)));
    g.addColorStop(1, css(lead ? mix(p.shadow, lead, 0.2) : p.shadow));
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
  }
  plan.shapes.forEach((s, i) => {
    const rng = createRng(s.seed);
    const wob = Math.sin(time * (0.6 + (i % 4) * 0.25) + i) ;
    const x = s.x * w + wob * u * 0.02 * (plan.abstractMode === 'flow' ? 2 : 1);
    const y = s.y * h + Math.cos(time * 0.5 + i * 1.3) * u * 0.015;
    const size = s.size * u * (1 + 0.04 * Math.sin(time * 1.1 + i));
    const rot = s.rotation + time * (plan.abstractMode === 'flow' ? 0.15 : 0.05) * (i % 2 ? 1 : -1);
    ctx.save();
    ctx.translate(x, y);
    ctx.rotate(rot);
    ctx.globalAlpha = s.alpha;
    if (plan.abstractMode === 'bauhaus' && i % 3 === 2) ctx.globalCompositeOperation = 'multiply';
    if (plan.abstractMode === 'flow') ctx.globalCompositeOperation = 'screen';
    ctx.fillStyle = css(s.colour);
    ctx.strokeStyle = css(s.colour);
    switch (s.kind) {
      case 'circle':
        ctx.beginPath();
        ctx.arc(0, 0, size / 2, 0, Math.PI * 2);
        ctx.fill();
        break;
      case 'ring':
        ctx.lineWidth = size * 0.08;
        ctx.beginPath();
        ctx.arc(0, 0, size / 2, 0, Math.PI * 2);
        if (plan.abstractMode === 'flow') glowStroke(ctx, s.colour, size * 0.03);
        else ctx.stroke();
        break;
      case 'rect':
        ctx.fillRect(-size / 2, -size * 0.3, size, size * 0.6);
        break;
      case 'triangle':
        ctx.beginPath();
        ctx.moveTo(0, -size / 2);
        ctx.lineTo(size / 2, size / 2);
        ctx.lineTo(-size / 2, size / 2);
        ctx.closePath();
        ctx.fill();
        break;
      case 'arc':
        ctx.lineWidth = size * 0.16;
        ctx.beginPath();
        ctx.arc(0, 0, size / 2, 0, Math.PI);
        ctx.stroke();
        break;
      case 'line':
        ctx.fillStyle = css(p.shadow);
        ctx.fillRect(-size, -u * 0.004, size * 2, u * 0.008);
        break;
      case 'orb': {
        const g = ctx.createRadialGradient(-size * 0.15, -size * 0.15, 0, 0, 0, size / 2);
        g.addColorStop(0, css(mix(s.colour, hex('#ffffff'), 0.6)));
        g.addColorStop(0.5, css(s.colour, 0.7));
        g.addColorStop(1, css(s.colour, 0));
        ctx.fillStyle = g;
        ctx.fillRect(-size / 2, -size / 2, size, size);
        break;
      }
      case 'ribbon': {
        // A silk ribbon across the canvas: many fine strands that twist around a flowing spine.
        ctx.rotate(-rot);
        ctx.translate(-x, -y);
        const strands = 22;
        const span = w * 1.3;
        const x0 = -w * 0.15;
        const c1 = rng.range(-0.4, 0.4) * h;
        const c2 = rng.range(-0.4, 0.4) * h;
        const y0 = y + rng.range(-0.25, 0.25) * h;
        const y3 = y + rng.range(-0.25, 0.25) * h;
        const width = size * 0.35;
        const twist = rng.range(1, 3) + time * 0.4;
        ctx.lineWidth = Math.max(1, u * 0.0016);
        for (let k = 0; k < strands; k++) {
          const o = (k / (strands - 1) - 0.5) * width;
          const tw = (t: number): number => o * Math.cos(t * Math.PI * twist + wob * 0.5);
          const colour = mix(s.colour, s.colour2, k / (strands - 1));
          ctx.strokeStyle = css(colour, 0.28 * s.alpha + 0.1);
          ctx.beginPath();
          const steps = 24;
          for (let j = 0; j <= steps; j++) {
            const t = j / steps;
            const mt = 1 - t;
            const bx = x0 + span * t;
            const by = mt * mt * mt * y0 + 3 * mt * mt * t * (y + c1) + 3 * mt * t * t * (y + c2) + t * t * t * y3;
            if (j === 0) ctx.moveTo(bx, by + tw(t));
            else ctx.lineTo(bx, by + tw(t));
          }
          ctx.stroke();
        }
        break;
      }
    }
    ctx.restore();
  });
}

/** Snow, rain, fireflies, embers, petals or dust; `time` moves them (seconds). */
export function drawParticles(ctx: Ctx, plan: ScenePlan, w: number, h: number, time = 0): void {
  const kind = plan.particles;
  if (!kind) return;
  const rng = createRng(plan.seed ^ 0x9a27);
  const u = Math.min(w, h);
  const p = plan.palette;
  const n = kind === 'rain' ? 420 : kind === 'snow' ? 320 : kind === 'dust' ? 140 : 90;
  ctx.save();
  if (kind === 'fireflies' || kind === 'embers' || kind === 'dust') ctx.globalCompositeOperation = 'screen';
  for (let i = 0; i < n; i++) {
    const depth = rng.next();
    const sx = rng.next();
    const sy = rng.next();
    const speed = (0.3 + depth * 0.7) * (kind === 'rain' ? 1.6 : kind === 'snow' ? 0.08 : kind === 'embers' ? -0.09 : 0.02);
    const y = ((((sy + time * speed) % 1) + 1) % 1) * h;
    const drift = kind === 'snow' || kind === 'petals' ? Math.sin(time * 0.9 + i) * 0.02 : kind === 'rain' ? -(y / h) * 0.08 : Math.sin(time * 0.5 + i * 3) * 0.01;
    const x = (((sx + drift) % 1) + 1) % 1 * w;
    const size = u * (0.0015 + depth * 0.004);
    switch (kind) {
      case 'rain':
        ctx.strokeStyle = css(mix(p.haze, hex('#ffffff'), 0.5), 0.18 + depth * 0.3);
        ctx.lineWidth = Math.max(1, size * 0.3);
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x - u * 0.006, y + u * (0.02 + depth * 0.03));
        ctx.stroke();
        break;
      case 'snow':
        ctx.fillStyle = css(hex('#ffffff'), 0.45 + depth * 0.5);
        ctx.beginPath();
        ctx.arc(x, y, size * 0.9, 0, Math.PI * 2);
        ctx.fill();
        break;
      case 'petals':
        ctx.save();
        ctx.translate(x, y);
        ctx.rotate(i + time * 2);
        ctx.fillStyle = css(p.accents[0] ?? hex('#ff9ec4'), 0.8);
        ctx.beginPath();
        ctx.ellipse(0, 0, size * 2, size, 0, 0, Math.PI * 2);
        ctx.fill();
        ctx.restore();
        break;
      default: {
        const c = kind === 'embers' ? hex('#ffa040') : kind === 'fireflies' ? hex('#e8ff8a') : mix(p.light, p.glow, 0.5);
        const flick = kind === 'dust' ? 0.4 : 0.6 + 0.4 * Math.sin(time * 5 + i * 2.3);
        const r = size * (kind === 'dust' ? 1 : 3);
        const g = ctx.createRadialGradient(x, y, 0, x, y, r);
        g.addColorStop(0, css(c, flick));
        g.addColorStop(1, css(c, 0));
        ctx.fillStyle = g;
        ctx.fillRect(x - r, y - r, r * 2, r * 2);
      }
    }
  }
  ctx.restore();
}

/** Draws the whole still picture of a plan. */
export function drawScene(ctx: Ctx, canvas: Canvas, plan: ScenePlan, w: number, h: number): void {
  const theme = plan.traits.theme;
  if (plan.abstractMode) {
    drawAbstract(ctx, plan, w, h);
    if (plan.traits.features.has('stars')) drawStars(ctx, plan, w, h);
  } else if (theme === 'portrait') {
    drawBackdrop(ctx, plan, w, h);
  } else {
    drawSky(ctx, plan, w, h);
    drawClouds(ctx, plan, w, h);
    drawBirds(ctx, plan, w, h);
  }
  plan.layers.forEach((layer, i) => drawTerrainLayer(ctx, plan, layer, w, h, plan.layers[i + 1]));
  drawNeonGrid(ctx, plan, w, h);
  drawWater(ctx, canvas, plan, w, h);
  drawFigure(ctx, plan, w, h);
  drawParticles(ctx, plan, w, h);
}

/** A new canvas with its context. */
export function canvasOf(width: number, height: number): { canvas: Canvas; ctx: Ctx } {
  const canvas = createCanvas(width, height);
  return { canvas, ctx: canvas.getContext('2d') };
}

