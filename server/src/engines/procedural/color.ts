/** Colour arithmetic on 8-bit sRGB triples; enough for palettes and gradients, not colour science. */

export type Rgb = readonly [number, number, number];

export function hex(value: string): Rgb {
  const v = value.replace('#', '');
  const full = v.length === 3 ? v.replace(/./g, (ch) => ch + ch) : v;
  const n = Number.parseInt(full, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const clamp255 = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

export function css(c: Rgb, alpha = 1): string {
  const r = Math.round(clamp255(c[0]));
  const g = Math.round(clamp255(c[1]));
  const b = Math.round(clamp255(c[2]));
  return alpha >= 1 ? `rgb(${r},${g},${b})` : `rgba(${r},${g},${b},${Math.max(0, alpha).toFixed(4)})`;
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(c: Rgb, k: number): Rgb {
  return [clamp255(c[0] * k), clamp255(c[1] * k), clamp255(c[2] * k)];
}

/** Rec. 709 luma in 0..255. */
export function luma(c: Rgb): number {
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

export interface Hsl {
  h: number; // degrees
  s: number; // 0..1
  l: number; // 0..1
}

export function toHsl(c: Rgb): Hsl {
  const r = c[0] / 255;
  const g = c[1] / 255;
  const b = c[2] / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: h * 60, s, l };
}

export function fromHsl(hsl: Hsl): Rgb {
  const h = (((hsl.h % 360) + 360) % 360) / 360;
  const s = Math.min(1, Math.max(0, hsl.s));
  const l = Math.min(1, Math.max(0, hsl.l));
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const f = (t: number): number => {
    let x = t;
    if (x < 0) x += 1;
    if (x > 1) x -= 1;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return [f(h + 1 / 3) * 255, f(h) * 255, f(h - 1 / 3) * 255];
}

export function hueShift(c: Rgb, degrees: number): Rgb {
  const hsl = toHsl(c);
  return fromHsl({ ...hsl, h: hsl.h + degrees });
}

export function saturate(c: Rgb, factor: number): Rgb {
  const hsl = toHsl(c);
  return fromHsl({ ...hsl, s: hsl.s * factor });
}

export function withLightness(c: Rgb, l: number): Rgb {
  return fromHsl({ ...toHsl(c), l });
}

/**
 * Moves `c`'s hue and saturation toward `target` by `t` while keeping most of its lightness, so a
 * dark silhouette tinted "red" stays a dark silhouette.
 */
export function tint(c: Rgb, target: Rgb, t: number): Rgb {
  const a = toHsl(c);
  const b = toHsl(target);
  if (b.s < 0.08) {
    // Neutral targets (white, black, grey) pull lightness and drain saturation instead.
    return fromHsl({ h: a.h, s: a.s * (1 - t), l: a.l + (b.l - a.l) * t * 0.5 });
  }
  let dh = b.h - a.h;
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  const h = a.s < 0.05 ? b.h : a.h + dh * t;
  return fromHsl({ h, s: a.s + (Math.max(b.s, 0.35) - a.s) * t, l: a.l + (b.l - a.l) * t * 0.25 });
}
