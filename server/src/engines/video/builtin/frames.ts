/**
 * Frames of a procedural video. The scene is planned once and its still parts (sky, each terrain
 * layer, water, figure) are drawn once onto an overscanned canvas each, and each cloud onto a
 * sprite of its own (clouds only drift); every frame then films them with the style's camera
 * (each layer shifted by its own parallax), draws what moves (birds, glitter, particles, shapes),
 * and grades the result with fresh grain.
 */
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { VideoRequest } from '../../types.ts';
import { css, hex, hueShift, mix } from '../../procedural/color.ts';
import { lookFor } from '../../procedural/look.ts';
import { buildPalette } from '../../procedural/palette.ts';
import { applyGrade, bloom, grade, planGrade, type GradePlan } from '../../procedural/post.ts';
import { hashString, mixSeeds } from '../../procedural/prng.ts';
import { analysePrompt } from '../../procedural/prompt.ts';
import {
  canvasOf,
  drawAbstract,
  drawBackdrop,
  drawBirds,
  drawClouds,
  drawFigure,
  drawGlitter,
  drawNeonGrid,
  drawParticles,
  drawSky,
  drawTerrainLayer,
  drawWater,
  planScene,
  type Cloud,
  type ScenePlan,
} from '../../procedural/scene.ts';
import { traitsForStyle, VIDEO_STYLE_SPECS, type Camera, type VideoStyleSpec } from './styles.ts';

const OVERSCAN = 1.2;

interface Layer {
  canvas: Canvas;
  /** Horizontal parallax (0 = fixed to the sky, 1 = moves with the foreground). */
  px: number;
  /** Vertical and zoom parallax. */
  pv: number;
  /** First row with anything drawn: rows above it are transparent and not drawn each frame. */
  top: number;
}

/** A cloud drawn once where `drawClouds` puts it at time 0, cropped to what it covers. */
interface CloudSprite {
  cloud: Cloud;
  canvas: Canvas;
  /** Where the sprite's top-left corner sits at time 0, in overscan space. */
  x: number;
  y: number;
}

/** The centre `drawClouds` gives a cloud at `time`: its drift, wrapped over 1.3 widths (the same formula). */
function cloudX(c: Cloud, time: number, speed: number, w: number): number {
  let cx = ((c.x + time * speed * (0.5 + (c.seed % 100) / 200)) % 1.3) * w;
  if (cx < -0.15 * w) cx += 1.3 * w;
  return cx;
}

/** The smallest rectangle holding every non-transparent pixel of a canvas, or null if there is none. */
function opaqueBounds(canvas: Canvas): { x: number; y: number; w: number; h: number } | null {
  const px = canvas.data();
  const words = new Uint32Array(px.buffer, px.byteOffset, px.byteLength >> 2);
  const w = canvas.width;
  let minX = w;
  let minY = -1;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < canvas.height; y++) {
    const row = y * w;
    let first = -1;
    for (let x = 0; x < w; x++) {
      // Premultiplied: a transparent pixel is all zero.
      if (words[row + x] !== 0) {
        first = x;
        break;
      }
    }
    if (first < 0) continue;
    let last = w - 1;
    while (words[row + last] === 0) last--;
    if (minY < 0) minY = y;
    maxY = y;
    if (first < minX) minX = first;
    if (last > maxX) maxX = last;
  }
  return minY < 0 ? null : { x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1 };
}

/** The first row of a canvas that has a non-transparent pixel (sampled every 4th column). */
function firstOpaqueRow(canvas: Canvas): number {
  const px = canvas.data();
  const w = canvas.width;
  for (let y = 0; y < canvas.height; y++) {
    const row = y * w * 4;
    for (let x = 0; x < w; x += 4) if ((px[row + x * 4 + 3] as number) > 0) return Math.max(0, y - 1);
  }
  return canvas.height;
}

export class FrameRenderer {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frameCount: number;
  readonly plan: ScenePlan;
  readonly spec: VideoStyleSpec;
  private readonly canvas: Canvas;
  private readonly ctx: SKRSContext2D;
  private readonly ow: number;
  private readonly oh: number;
  private readonly layers: Layer[] = [];
  private readonly clouds: CloudSprite[] = [];
  private readonly gradePlan: GradePlan;
  private readonly seed: number;
  private readonly dir: number;
  private readonly groundPv: number;

  constructor(req: VideoRequest) {
    this.width = req.width;
    this.height = req.height;
    this.fps = req.fps;
    this.frameCount = Math.max(1, Math.round(req.durationSec * req.fps));
    this.spec = VIDEO_STYLE_SPECS[req.style];
    const base = analysePrompt(req.prompt);
    const traits = traitsForStyle(base, this.spec);
    const palette = buildPalette(traits);
    this.seed = mixSeeds(req.seed, traits.hash, hashString(req.style));
    this.plan = planScene(traits, palette, this.seed);
    this.dir = (this.seed & 1) === 0 ? 1 : -1;
    const look = lookFor(traits, palette);
    this.gradePlan = planGrade(this.width, this.height, grade({ ...look.grade, ...this.spec.grade }));
    ({ canvas: this.canvas, ctx: this.ctx } = canvasOf(this.width, this.height));
    this.ow = Math.round(this.width * OVERSCAN);
    this.oh = Math.round(this.height * OVERSCAN);
    this.groundPv = 0.55;
    this.prerender();
  }

  private layerCanvas(): { canvas: Canvas; ctx: SKRSContext2D } {
    return canvasOf(this.ow, this.oh);
  }

  /** Draws the parts that do not change into their own canvases. */
  private prerender(): void {
    const { plan, ow, oh } = this;
    const par = this.spec.parallax;
    if (plan.abstractMode) return;
    const sky = this.layerCanvas();
    if (plan.traits.theme === 'portrait') drawBackdrop(sky.ctx, plan, ow, oh);
    else drawSky(sky.ctx, plan, ow, oh);
    this.layers.push({ canvas: sky.canvas, px: 0.06 * par, pv: 0.06, top: 0 });

    // Terrain, far to near; far layers a touch soft when the style has depth of field.
    const composite = plan.water ? this.layerCanvas() : null;
    composite?.ctx.drawImage(sky.canvas, 0, 0);
    plan.layers.forEach((layer, i) => {
      const c = this.layerCanvas();
      drawTerrainLayer(c.ctx, plan, layer, ow, oh, plan.layers[i + 1]);
      let canvas = c.canvas;
      if (this.spec.depthOfField && layer.depth < 0.5 && plan.layers.length > 1) {
        const blurred = this.layerCanvas();
        blurred.ctx.filter = `blur(${((1 - layer.depth) * this.width / 900).toFixed(2)}px)`;
        blurred.ctx.drawImage(c.canvas, 0, 0);
        canvas = blurred.canvas;
      }
      composite?.ctx.drawImage(canvas, 0, 0);
      const px = (0.2 + 0.8 * layer.depth) * par;
      this.layers.push({ canvas, px, pv: plan.onHorizon ? this.groundPv : px, top: firstOpaqueRow(canvas) });
    });
    if (plan.water && composite) {
      // The water mirrors the composed scene; keep only what lies below the horizon.
      drawWater(composite.ctx, composite.canvas, plan, ow, oh, 0, false);
      const water = this.layerCanvas();
      const hz = Math.round(plan.horizon * oh);
      water.ctx.drawImage(composite.canvas, 0, hz, ow, oh - hz, 0, hz, ow, oh - hz);
      this.layers.push({ canvas: water.canvas, px: 0.35 * par, pv: this.groundPv, top: hz });
    }
    if (plan.figure) {
      const fig = this.layerCanvas();
      drawFigure(fig.ctx, plan, ow, oh);
      this.layers.push({ canvas: fig.canvas, px: 0.9 * par, pv: 0.9, top: firstOpaqueRow(fig.canvas) });
    }
    // Drawing clouds (gradient-filled discs) costs more than the rest of a frame's scene; as
    // sprites they cost a copy each. Each is drawn centred on a canvas twice the overscan width,
    // so that what lies outside the frame at first is there when it drifts in.
    if (plan.clouds.length > 0) {
      const board = canvasOf(2 * ow, oh);
      for (const cloud of plan.clouds) {
        const shift = ow - cloudX(cloud, 0, 0, ow);
        board.ctx.setTransform(1, 0, 0, 1, 0, 0);
        board.ctx.clearRect(0, 0, 2 * ow, oh);
        board.ctx.translate(shift, 0);
        drawClouds(board.ctx, { ...plan, clouds: [cloud] }, ow, oh, 0, 0);
        const box = opaqueBounds(board.canvas);
        if (!box) continue;
        const sprite = canvasOf(box.w, box.h);
        sprite.ctx.drawImage(board.canvas, box.x, box.y, box.w, box.h, 0, 0, box.w, box.h);
        this.clouds.push({ cloud, canvas: sprite.canvas, x: box.x - shift, y: box.y });
      }
    }
  }

  /** Sets the transform that films overscan space with the camera at a given parallax. */
  private film(cam: Camera, px: number, pv: number): void {
    const { ctx, width: W, height: H, ow, oh } = this;
    const z = 1 + (cam.zoom - 1) * Math.max(0.3, pv);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.translate(W / 2, H / 2);
    if (cam.rot !== 0) ctx.rotate(cam.rot);
    ctx.scale(z, z);
    ctx.translate(-ow / 2 + cam.x * W * px, -oh / 2 + cam.y * H * pv);
  }

  /** Renders frame `index` and returns its RGBA pixels. */
  render(index: number): Uint8ClampedArray {
    const { ctx, plan, spec, width: W, height: H, ow, oh } = this;
    const t = this.frameCount > 1 ? index / (this.frameCount - 1) : 0;
    const sec = index / this.fps;
    const cam = spec.camera(t, sec, this.dir, this.seed);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.globalCompositeOperation = 'source-over';
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, W, H);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'low';

    if (plan.abstractMode) {
      this.film(cam, 1, 1);
      const shift = sec * 24;
      const moving = { ...plan, shapes: plan.shapes.map((s) => ({ ...s, colour: hueShift(s.colour, shift), colour2: hueShift(s.colour2, shift) })) };
      drawAbstract(ctx, moving, ow, oh, sec * 1.6);
    } else {
      const [sky, ...rest] = this.layers;
      if (sky) {
        this.film(cam, sky.px, sky.pv);
        ctx.drawImage(sky.canvas, 0, 0);
      }
      if (this.clouds.length > 0) {
        this.film(cam, 0.15 * spec.parallax, 0.15);
        for (const c of this.clouds) {
          const drift = cloudX(c.cloud, sec, spec.cloudSpeed, ow) - cloudX(c.cloud, 0, 0, ow);
          ctx.drawImage(c.canvas, c.x + drift, c.y);
        }
      }
      if (plan.birds) {
        this.film(cam, 0.25, 0.25);
        drawBirds(ctx, plan, ow, oh, sec);
      }
      const terrainCount = plan.layers.length;
      rest.forEach((layer, i) => {
        this.film(cam, layer.px, layer.pv);
        if (plan.figure && i === rest.length - 1) {
          // The figure breathes.
          const b = 1 + 0.006 * Math.sin(sec * 1.3);
          ctx.translate(ow / 2, oh);
          ctx.scale(b, b);
          ctx.translate(-ow / 2, -oh);
        }
        if (layer.top < oh) ctx.drawImage(layer.canvas, 0, layer.top, ow, oh - layer.top, 0, layer.top, ow, oh - layer.top);
        if (i === terrainCount - 1 && plan.neonGrid) {
          this.film(cam, 1, this.groundPv);
          drawNeonGrid(ctx, plan, ow, oh, sec);
        }
        if (plan.water && i === terrainCount) {
          drawGlitter(ctx, plan, ow, oh, sec);
        }
      });
    }
    if (plan.particles) {
      this.film(cam, 1, 1);
      drawParticles(ctx, plan, ow, oh, sec);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (spec.flare && plan.light.kind !== 'none') this.flare(cam);
    if (spec.bloom > 0) bloom(this.canvas, ctx, spec.bloom);
    // Fades.
    const fade = Math.min(spec.fadeIn > 0 ? sec / spec.fadeIn : 1, spec.fadeOut > 0 ? (this.frameCount / this.fps - sec) / spec.fadeOut : 1);
    if (fade < 1) {
      ctx.fillStyle = css([0, 0, 0], 1 - Math.max(0, fade));
      ctx.fillRect(0, 0, W, H);
    }
    if (spec.letterbox) {
      const picH = Math.min(H, Math.round(W / spec.letterbox));
      const bar = Math.floor((H - picH) / 2);
      ctx.fillStyle = '#000';
      ctx.fillRect(0, 0, W, bar);
      ctx.fillRect(0, H - bar, W, bar);
    }
    const px = ctx.getImageData(0, 0, W, H).data;
    applyGrade(px, this.gradePlan, mixSeeds(this.seed, index));
    return px;
  }

  /** An anamorphic streak: a thin horizontal glow through the light, drifting with the sky. */
  private flare(cam: Camera): void {
    const { ctx, plan, width: W, height: H, ow, oh } = this;
    const sky = this.layers[0];
    const z = 1 + (cam.zoom - 1) * 0.3;
    const lx = W / 2 + (plan.light.x * ow - ow / 2 + cam.x * W * (sky?.px ?? 0)) * z;
    const ly = H / 2 + (plan.light.y * oh - oh / 2) * z;
    const c = mix(plan.palette.glow, hex('#9fd8ff'), 0.5);
    ctx.save();
    ctx.globalCompositeOperation = 'screen';
    ctx.translate(lx, ly);
    ctx.scale(1, 0.018);
    const g = ctx.createRadialGradient(0, 0, 0, 0, 0, W * 0.6);
    g.addColorStop(0, css(c, 0.55));
    g.addColorStop(0.4, css(c, 0.15));
    g.addColorStop(1, css(c, 0));
    ctx.fillStyle = g;
    ctx.fillRect(-W * 0.6, -W * 0.6, W * 1.2, W * 1.2);
    ctx.restore();
  }
}
