/**
 * Palettes: a base per light (day, sunset, …), land colours per theme, then the prompt's colour
 * words, styles and mood on top, and a small hue drift from the words the lexicon does not know.
 */
import { fromHsl, hex, hueShift, luma, mix, saturate, tint, toHsl, type Rgb } from './color.ts';
import type { Lighting, PromptTraits, Theme } from './prompt.ts';

export interface Palette {
  skyTop: Rgb;
  skyMid: Rgb;
  skyLow: Rgb;
  /** The light source itself (sun, moon, key light). */
  light: Rgb;
  /** Its halo. */
  glow: Rgb;
  /** Air between the viewer and far things. */
  haze: Rgb;
  /** Far → near. */
  land: [Rgb, Rgb, Rgb];
  water: Rgb;
  waterDeep: Rgb;
  /** Shape, window, neon and particle colours; the first is the prompt's main colour when it names one. */
  accents: Rgb[];
  /** The darkest ink. */
  shadow: Rgb;
  /** A paper / background tone for flat and abstract work. */
  paper: Rgb;
}

const h = hex;

const BASE: Record<Lighting, Palette> = {
  day: {
    skyTop: h('#2c6bc9'),
    skyMid: h('#6ea6e6'),
    skyLow: h('#d2e8f6'),
    light: h('#fffbe8'),
    glow: h('#fff1c1'),
    haze: h('#cfe2ef'),
    land: [h('#8aa6bf'), h('#5a8465'), h('#2f4a34')],
    water: h('#3c86c4'),
    waterDeep: h('#12406e'),
    accents: [h('#f2c14e'), h('#e4572e'), h('#3fa34d'), h('#2a9d8f'), h('#f7f3e3')],
    shadow: h('#16222c'),
    paper: h('#f1ece1'),
  },
  sunset: {
    skyTop: h('#211b4e'),
    skyMid: h('#9a3d76'),
    skyLow: h('#ff9248'),
    light: h('#ffe29a'),
    glow: h('#ff9a52'),
    haze: h('#f2946a'),
    land: [h('#7a4070'), h('#46264f'), h('#1f1030')],
    water: h('#5a3060'),
    waterDeep: h('#1c1030'),
    accents: [h('#ff5e5b'), h('#ffcf56'), h('#ff9a8b'), h('#c06c84'), h('#6c5b7b')],
    shadow: h('#140a1c'),
    paper: h('#f6e3cf'),
  },
  dawn: {
    skyTop: h('#3d4f92'),
    skyMid: h('#c493b8'),
    skyLow: h('#ffd3a6'),
    light: h('#fff3d0'),
    glow: h('#ffc9a0'),
    haze: h('#f1c6bd'),
    land: [h('#9a8db0'), h('#6a5f86'), h('#342f4d')],
    water: h('#8a86b8'),
    waterDeep: h('#353763'),
    accents: [h('#ffb4a2'), h('#e5989b'), h('#b5838d'), h('#ffcdb2'), h('#6d6875')],
    shadow: h('#1d1a2c'),
    paper: h('#f8ebe4'),
  },
  night: {
    skyTop: h('#03060f'),
    skyMid: h('#0c1a3a'),
    skyLow: h('#1f3b68'),
    light: h('#e9f0ff'),
    glow: h('#7fa2e0'),
    haze: h('#2b4676'),
    land: [h('#1f3150'), h('#121e36'), h('#070c1a')],
    water: h('#112648'),
    waterDeep: h('#040a18'),
    accents: [h('#ffd36b'), h('#6ad1ff'), h('#ff6bd6'), h('#9d7bff'), h('#7dffb3')],
    shadow: h('#02040a'),
    paper: h('#101728'),
  },
  fog: {
    skyTop: h('#8f9ba4'),
    skyMid: h('#bcc4c8'),
    skyLow: h('#dfe2e0'),
    light: h('#fbf8f0'),
    glow: h('#ffffff'),
    haze: h('#d8dbd9'),
    land: [h('#b0b9bc'), h('#7a8789'), h('#414c4e')],
    water: h('#93a0a4'),
    waterDeep: h('#4d5a5e'),
    accents: [h('#c9a66b'), h('#8c6e54'), h('#5f7470'), h('#a3b5b0'), h('#e7d9c0')],
    shadow: h('#1c2224'),
    paper: h('#ecebe6'),
  },
  storm: {
    skyTop: h('#1b2127'),
    skyMid: h('#3a4650'),
    skyLow: h('#6e7b82'),
    light: h('#e3ebff'),
    glow: h('#a9c0ff'),
    haze: h('#56636a'),
    land: [h('#3d474c'), h('#262e32'), h('#111618')],
    water: h('#2c3a40'),
    waterDeep: h('#0e1518'),
    accents: [h('#c7d7ff'), h('#f0c05a'), h('#7f9cb0'), h('#d95d39'), h('#a3b1b8')],
    shadow: h('#0a0d0f'),
    paper: h('#d9dcdc'),
  },
};

/** Land colours per theme, as a day would show them; the light then colours them. */
const THEME_LAND: Partial<Record<Theme, [Rgb, Rgb, Rgb]>> = {
  forest: [h('#6f9a86'), h('#2f6b45'), h('#173c24')],
  desert: [h('#e0b07a'), h('#c9814a'), h('#8a4a26')],
  snow: [h('#dfe8f2'), h('#aabdd3'), h('#6a829f')],
  city: [h('#7d8fa6'), h('#4b5a70'), h('#232c3b')],
  landscape: [h('#8aa0b8'), h('#567a62'), h('#2f4433')],
};

const NEON_ACCENTS = [h('#ff2bd6'), h('#00e5ff'), h('#8c52ff'), h('#ffe600'), h('#ff6a3d')];

function mapPalette(p: Palette, f: (c: Rgb) => Rgb): Palette {
  return {
    skyTop: f(p.skyTop),
    skyMid: f(p.skyMid),
    skyLow: f(p.skyLow),
    light: f(p.light),
    glow: f(p.glow),
    haze: f(p.haze),
    land: [f(p.land[0]), f(p.land[1]), f(p.land[2])],
    water: f(p.water),
    waterDeep: f(p.waterDeep),
    accents: p.accents.map(f),
    shadow: f(p.shadow),
    paper: f(p.paper),
  };
}

export function buildPalette(traits: PromptTraits): Palette {
  const base = BASE[traits.lighting];
  let p: Palette = { ...base, land: [...base.land] as [Rgb, Rgb, Rgb], accents: [...base.accents] };

  // The theme's land, seen in this light: day shows it as it is, sunset and night mostly as silhouettes.
  const themeLand = THEME_LAND[traits.theme];
  if (themeLand) {
    const keep: Record<Lighting, number> = { day: 0.85, dawn: 0.55, sunset: 0.4, night: 0.3, fog: 0.45, storm: 0.4 };
    const k = keep[traits.lighting];
    p.land = [mix(p.land[0], themeLand[0], k), mix(p.land[1], themeLand[1], k), mix(p.land[2], themeLand[2], k)];
  }
  if (traits.theme === 'ocean' || traits.features.has('water')) {
    const blue = traits.lighting === 'day' ? h('#1f7fd0') : traits.lighting === 'night' ? h('#0d2a55') : p.water;
    p.water = mix(p.water, blue, 0.6);
  }
  if (traits.theme === 'ocean' && traits.lighting === 'day') {
    // A seascape's sky is bluer and its air cleaner.
    p.skyMid = mix(p.skyMid, h('#4f9be8'), 0.4);
    p.haze = mix(p.haze, h('#b8dcf2'), 0.5);
  }
  if (traits.theme === 'space') {
    p.skyTop = h('#020308');
    p.skyMid = h('#070b1e');
    p.skyLow = h('#12183a');
    p.accents = [h('#d94dff'), h('#2ec4ff'), h('#ff6b8b'), h('#7b5cff'), h('#4dffd2')];
  }

  // Mood shifts the white balance: warm toward amber, cold toward steel blue.
  if (Math.abs(traits.warmth) > 0.05) {
    const k = Math.max(-1, Math.min(1, traits.warmth)) * 0.12;
    p = mapPalette(p, (c) => [Math.min(255, c[0] * (1 + k)), c[1] * (1 + k * 0.15), Math.min(255, c[2] * (1 - k))]);
  }
  if (traits.foliage) {
    const f = traits.foliage;
    p.land = [tint(p.land[0], f, 0.45), tint(p.land[1], f, 0.7), tint(p.land[2], f, 0.6)];
  }

  // Colour words: the first leads (sky, glow, water, accents), the next ones follow more lightly.
  traits.colours.forEach((c, i) => {
    const k = i === 0 ? 1 : i === 1 ? 0.7 : 0.5;
    p.accents = [c, ...p.accents].slice(0, 6);
    if (i === 0) {
      p.skyMid = tint(p.skyMid, c, 0.6 * k);
      p.skyLow = tint(p.skyLow, c, 0.45 * k);
      p.glow = tint(p.glow, c, 0.55 * k);
      p.haze = tint(p.haze, c, 0.4 * k);
      p.water = tint(p.water, c, 0.5 * k);
      p.land = [tint(p.land[0], c, 0.35 * k), tint(p.land[1], c, 0.3 * k), tint(p.land[2], c, 0.2 * k)];
      p.paper = tint(p.paper, c, 0.15);
    } else if (i === 1) {
      p.skyTop = tint(p.skyTop, c, 0.55 * k);
      p.land = [p.land[0], tint(p.land[1], c, 0.35 * k), tint(p.land[2], c, 0.35 * k)];
      p.waterDeep = tint(p.waterDeep, c, 0.4 * k);
    } else {
      p.haze = tint(p.haze, c, 0.3 * k);
    }
  });

  // Words the lexicon does not know turn the hue a little: two prompts never share a palette.
  const drift = ((traits.unknownHash % 1000) / 1000 - 0.5) * (traits.colours.length > 0 ? 14 : 36);
  if (traits.unknownWords.length > 0) p = mapPalette(p, (c) => hueShift(c, drift));

  const s = traits.styles;
  if (s.has('neon')) {
    p.skyTop = h('#07021a');
    p.skyMid = mix(h('#2a0a4a'), p.skyMid, 0.2);
    p.skyLow = mix(h('#ff2f8f'), p.skyLow, traits.colours.length > 0 ? 0.45 : 0.15);
    p.glow = mix(h('#ff4fd0'), p.glow, 0.25);
    p.light = h('#ffd23f');
    p.haze = h('#7a1f7a');
    p.land = [h('#3a0f5c'), h('#1e0838'), h('#0b0218')];
    p.water = h('#12062a');
    p.waterDeep = h('#05010f');
    p.accents = [...traits.colours, ...NEON_ACCENTS].slice(0, 6);
    p.shadow = h('#030008');
  }
  if (s.has('pastel')) p = mapPalette(p, (c) => pastel(c));
  if (s.has('vibrant')) p = mapPalette(p, (c) => saturate(c, 1.35));
  if (s.has('vintage')) p = mapPalette(p, (c) => tint(saturate(c, 0.75), h('#c8a070'), 0.2));
  if (s.has('minimal')) p.accents = p.accents.slice(0, 3);
  return p;
}

function pastel(c: Rgb): Rgb {
  const hsl = toHsl(c);
  return fromHsl({ h: hsl.h, s: Math.min(0.55, hsl.s * 0.7), l: 0.62 + hsl.l * 0.28 });
}

/** The palette as a short gradient from dark to light, for gradient maps (image-to-image). */
export function toneRamp(p: Palette): Rgb[] {
  const stops = [p.shadow, p.land[2], p.land[1], p.skyMid, p.accents[0] ?? p.glow, p.skyLow, p.light];
  return stops.sort((a, b) => luma(a) - luma(b));
}
