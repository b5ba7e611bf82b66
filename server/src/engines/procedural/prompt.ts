/**
 * Reads a prompt the way the procedural engines can use it: which scene (theme and elements),
 * which light, which style, which colours, which mood. Words it does not know still count: they go
 * into a hash that nudges hue and composition, so every prompt renders differently.
 */
import { hashString } from './prng.ts';
import { hex, type Rgb } from './color.ts';

export const THEMES = ['landscape', 'ocean', 'city', 'forest', 'desert', 'snow', 'space', 'portrait', 'abstract'] as const;
export type Theme = (typeof THEMES)[number];

export const LIGHTINGS = ['day', 'sunset', 'dawn', 'night', 'fog', 'storm'] as const;
export type Lighting = (typeof LIGHTINGS)[number];

export const STYLE_TAGS = [
  'minimal',
  'neon',
  'watercolor',
  'vintage',
  'noir',
  'pastel',
  'vibrant',
  'dreamy',
  'dramatic',
  'sketch',
  'geometric',
  'flat',
  'photo',
] as const;
export type StyleTag = (typeof STYLE_TAGS)[number];

export const FEATURES = [
  'mountains',
  'hills',
  'water',
  'city',
  'trees',
  'dunes',
  'snowcaps',
  'stars',
  'planet',
  'nebula',
  'figure',
  'shapes',
  'clouds',
  'aurora',
  'moon',
  'sun',
  'birds',
] as const;
export type Feature = (typeof FEATURES)[number];

export type Particles = 'snow' | 'rain' | 'fireflies' | 'embers' | 'petals' | 'dust';

type Effect =
  | { theme: Theme }
  | { feature: Feature }
  | { lighting: Lighting }
  | { style: StyleTag }
  | { colour: string }
  | { warmth: number }
  | { energy: number }
  | { particles: Particles }
  | { foliage: string };

const T = (theme: Theme): Effect => ({ theme });
const F = (feature: Feature): Effect => ({ feature });
const L = (lighting: Lighting): Effect => ({ lighting });
const S = (style: StyleTag): Effect => ({ style });
const C = (colour: string): Effect => ({ colour });
const W = (warmth: number): Effect => ({ warmth });
const E = (energy: number): Effect => ({ energy });
const P = (particles: Particles): Effect => ({ particles });
const G = (foliage: string): Effect => ({ foliage });

function entries(words: string, ...effects: Effect[]): [string, Effect[]][] {
  return words.split(' ').map((w) => [w.replace(/_/g, ' '), effects]);
}

/** Every word (and a few phrases, with `_` for the space) the engines react to. */
const LEXICON = new Map<string, Effect[]>([
  // Scenes
  ...entries('mountain peak alps alpine summit ridge cliff volcano highlands himalaya range', T('landscape'), F('mountains')),
  ...entries('canyon mesa', T('desert'), F('mountains')),
  ...entries('landscape scenery vista panorama nature', T('landscape')),
  ...entries('hill valley meadow field countryside prairie grassland farm pasture', T('landscape'), F('hills')),
  ...entries('ocean sea seascape beach coast shore wave surf island sailing tide lagoon', T('ocean'), F('water')),
  ...entries('lake river pond water reflection harbor harbour bay waterfront', F('water')),
  ...entries(
    'city cityscape skyline urban street downtown skyscraper building metropolis town tokyo architecture tower new_york',
    T('city'),
    F('city'),
  ),
  ...entries('forest woods woodland tree jungle pine taiga grove rainforest', T('forest'), F('trees')),
  ...entries('desert dune sand sahara arid oasis', T('desert'), F('dunes')),
  ...entries('snow snowy winter ice icy arctic glacier frozen frost tundra', T('snow'), F('snowcaps'), W(-0.6)),
  ...entries('snowfall snowing blizzard snowflake', T('snow'), P('snow'), W(-0.5)),
  ...entries('space galaxy cosmos cosmic universe outer_space astronaut orbit', T('space'), F('stars'), F('nebula')),
  ...entries('nebula', T('space'), F('nebula')),
  ...entries('planet saturn jupiter mars', T('space'), F('planet')),
  ...entries('star starry constellation night_sky', F('stars')),
  ...entries(
    'portrait face person woman man girl boy character selfie headshot figure silhouette lady gentleman profile',
    T('portrait'),
    F('figure'),
  ),
  ...entries('abstract pattern shapes fractal composition form', T('abstract'), F('shapes')),
  ...entries('cloud clouds cloudy sky', F('clouds')),
  ...entries('aurora northern_lights borealis', F('aurora'), L('night'), W(-0.3)),
  ...entries('bird birds seagull flock', F('birds')),
  ...entries('sun sunny sunshine', F('sun'), L('day'), W(0.3)),
  ...entries('moon moonlight moonlit lunar', F('moon'), L('night')),
  ...entries('rain rainy drizzle', P('rain'), L('storm')),
  ...entries('firefly fireflies', P('fireflies'), L('night')),
  ...entries('fire ember embers lava flame', P('embers'), W(0.8), E(0.4)),
  ...entries('blossom sakura petal cherry_blossom flowers flower', P('petals'), S('pastel'), C('#ff9ec4')),
  ...entries('dust dusty haze', P('dust')),
  // Light
  ...entries('sunset dusk evening twilight sundown golden_hour', L('sunset'), W(0.6)),
  ...entries('sunrise dawn morning daybreak', L('dawn'), W(0.3)),
  ...entries('night midnight nocturnal nighttime', L('night'), W(-0.4)),
  ...entries('day daytime noon midday daylight summer', L('day'), W(0.2)),
  ...entries('fog foggy mist misty hazy overcast gloomy', L('fog'), E(-0.3)),
  ...entries('storm stormy thunder lightning thunderstorm tempest', L('storm'), E(0.6)),
  // Style
  ...entries('minimal minimalist minimalism simple clean zen', S('minimal'), E(-0.3)),
  ...entries('neon cyberpunk synthwave vaporwave retrowave outrun glow glowing', S('neon'), E(0.3)),
  ...entries('watercolor watercolour aquarelle painting painted gouache wash', S('watercolor')),
  ...entries('vintage retro old film analog polaroid sepia faded nostalgic', S('vintage')),
  ...entries('noir monochrome black_and_white grayscale greyscale', S('noir')),
  ...entries('pastel soft cute kawaii gentle', S('pastel'), E(-0.2)),
  ...entries('vibrant colorful colourful vivid saturated psychedelic', S('vibrant'), E(0.3)),
  ...entries('dreamy dream ethereal magical fantasy surreal fairy mystical', S('dreamy')),
  ...entries('dramatic epic cinematic moody intense majestic', S('dramatic'), E(0.2)),
  ...entries('sketch ink drawing pencil lineart line_art comic manga charcoal', S('sketch')),
  ...entries('geometric lowpoly low_poly polygon bauhaus cubist cubism', S('geometric')),
  ...entries('flat illustration vector poster cartoon anime', S('flat')),
  ...entries('photo photograph photography realistic photorealistic hdr', S('photo')),
  // Mood
  ...entries('warm cozy cosy', W(0.6)),
  ...entries('autumn autumnal fall', W(0.5), G('#c8602a')),
  ...entries('spring lush', G('#6dbb4a')),
  ...entries('cold cool chilly', W(-0.6)),
  ...entries('calm peaceful serene quiet tranquil still lonely relaxing', E(-0.5)),
  ...entries('chaotic energetic dynamic wild explosive party dance', E(0.6)),
  // Colours
  ...entries('red', C('#d7263d')),
  ...entries('crimson ruby', C('#a8102a')),
  ...entries('scarlet', C('#e0301e')),
  ...entries('orange tangerine', C('#ff7f11')),
  ...entries('amber', C('#ffb000')),
  ...entries('gold golden', C('#e8b923')),
  ...entries('yellow lemon', C('#ffd60a')),
  ...entries('lime', C('#9ee32b')),
  ...entries('green verdant', C('#2f9e44')),
  ...entries('emerald jade', C('#10a37f')),
  ...entries('olive', C('#708238')),
  ...entries('mint', C('#98e2c6')),
  ...entries('teal', C('#138086')),
  ...entries('turquoise aqua', C('#30d5c8')),
  ...entries('cyan', C('#00c2d1')),
  ...entries('blue', C('#1f6feb')),
  ...entries('azure', C('#2f8fff')),
  ...entries('navy', C('#14213d')),
  ...entries('cobalt sapphire', C('#0047ab')),
  ...entries('indigo', C('#4b3f9e')),
  ...entries('violet', C('#7f3fbf')),
  ...entries('purple', C('#7b2cbf')),
  ...entries('lavender lilac', C('#b8a1e3')),
  ...entries('magenta fuchsia', C('#d6249f')),
  ...entries('pink', C('#ff6fa5')),
  ...entries('rose', C('#e8508a')),
  ...entries('coral salmon', C('#ff6f59')),
  ...entries('peach', C('#ffb38a')),
  ...entries('brown chocolate', C('#7a4a2a')),
  ...entries('tan beige', C('#d2b48c')),
  ...entries('cream ivory', C('#f3e9d2')),
  ...entries('white', C('#f5f5f0')),
  ...entries('black', C('#0b0b0f')),
  ...entries('grey gray', C('#808890')),
  ...entries('silver', C('#c0c6cc')),
  ...entries('charcoal', C('#2e3236')),
  ...entries('copper bronze', C('#b87333')),
  ...entries('rust', C('#b7410e')),
  ...entries('ochre', C('#cc7722')),
]);

const PHRASES = [...LEXICON.keys()].filter((k) => k.includes(' ')).sort((a, b) => b.length - a.length);

const STOP_WORDS = new Set(
  ('a an the of with in on and or at by for to from over under into onto is are be very some this that ' +
    'its it as near behind above below beautiful image picture high quality detailed ultra 4k 8k hd art style render')
    .split(' '),
);

export interface PromptTraits {
  /** The prompt as read: lower case, words separated by single spaces. */
  normalized: string;
  words: string[];
  /** Words the lexicon does not know, in order (they still shape the result through `unknownHash`). */
  unknownWords: string[];
  /** Hash of the whole reading (prompt and negative prompt). */
  hash: number;
  unknownHash: number;
  theme: Theme;
  /** Whether the theme came from the words (false: picked from the hash). */
  themeFromWords: boolean;
  features: Set<Feature>;
  lighting: Lighting;
  lightingFromWords: boolean;
  styles: Set<StyleTag>;
  colours: Rgb[];
  /** A colour for vegetation and land (autumn leaves, spring green). */
  foliage: Rgb | null;
  particles: Particles | null;
  /** -1 cold … 1 warm. */
  warmth: number;
  /** 0 calm … 1 energetic. */
  energy: number;
}

function tokenize(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 0);
}

function lookup(word: string): Effect[] | undefined {
  const direct = LEXICON.get(word);
  if (direct) return direct;
  if (word.length > 3 && word.endsWith('ies')) return LEXICON.get(`${word.slice(0, -3)}y`);
  if (word.length > 3 && word.endsWith('es')) return LEXICON.get(word.slice(0, -2)) ?? LEXICON.get(word.slice(0, -1));
  if (word.length > 2 && word.endsWith('s')) return LEXICON.get(word.slice(0, -1));
  return undefined;
}

interface Reading {
  effects: Effect[];
  words: string[];
  unknown: string[];
}

function read(text: string): Reading {
  let rest = ` ${tokenize(text).join(' ')} `;
  const effects: Effect[] = [];
  for (const phrase of PHRASES) {
    const needle = ` ${phrase} `;
    while (rest.includes(needle)) {
      effects.push(...(LEXICON.get(phrase) ?? []));
      rest = rest.replace(needle, ' ');
    }
  }
  const words = rest.trim().split(' ').filter(Boolean);
  const unknown: string[] = [];
  for (const w of words) {
    const found = lookup(w);
    if (found) effects.push(...found);
    else if (!STOP_WORDS.has(w)) unknown.push(w);
  }
  return { effects, words: tokenize(text), unknown };
}

const THEME_FEATURES: Record<Theme, Feature[]> = {
  landscape: ['mountains', 'hills'],
  ocean: ['water'],
  city: ['city'],
  forest: ['trees', 'hills'],
  desert: ['dunes'],
  snow: ['mountains', 'snowcaps'],
  space: ['stars', 'nebula', 'planet'],
  portrait: ['figure'],
  abstract: ['shapes'],
};

/** Analyses a prompt (and an optional negative prompt, whose elements, colours and styles are removed). */
export function analysePrompt(prompt: string, negativePrompt = ''): PromptTraits {
  const positive = read(prompt);
  const negative = read(negativePrompt);
  const normalized = positive.words.join(' ');
  const hash = hashString(`${normalized}\u0000${negative.words.join(' ')}`);
  const unknownHash = hashString(positive.unknown.join(' '), 0x5eed);

  const banned = {
    themes: new Set<string>(),
    features: new Set<string>(),
    styles: new Set<string>(),
    colours: new Set<string>(),
    lightings: new Set<string>(),
  };
  for (const e of negative.effects) {
    if ('theme' in e) banned.themes.add(e.theme);
    if ('feature' in e) banned.features.add(e.feature);
    if ('style' in e) banned.styles.add(e.style);
    if ('colour' in e) banned.colours.add(e.colour);
    if ('lighting' in e) banned.lightings.add(e.lighting);
  }

  const themeScore = new Map<Theme, number>();
  const lightScore = new Map<Lighting, number>();
  const features = new Set<Feature>();
  const styles = new Set<StyleTag>();
  const colours: Rgb[] = [];
  const seenColours = new Set<string>();
  let particles: Particles | null = null;
  let foliage: Rgb | null = null;
  let warmth = 0;
  let energy = 0.5;
  positive.effects.forEach((e, i) => {
    // Earlier words weigh slightly more: the subject usually comes first.
    const weight = 1 + 1 / (1 + i);
    if ('theme' in e && !banned.themes.has(e.theme)) themeScore.set(e.theme, (themeScore.get(e.theme) ?? 0) + weight);
    if ('feature' in e && !banned.features.has(e.feature)) features.add(e.feature);
    if ('lighting' in e && !banned.lightings.has(e.lighting))
      lightScore.set(e.lighting, (lightScore.get(e.lighting) ?? 0) + weight);
    if ('style' in e && !banned.styles.has(e.style)) styles.add(e.style);
    if ('colour' in e && !banned.colours.has(e.colour) && !seenColours.has(e.colour)) {
      seenColours.add(e.colour);
      colours.push(hex(e.colour));
    }
    if ('warmth' in e) warmth += e.warmth;
    if ('energy' in e) energy += e.energy * 0.5;
    if ('particles' in e && particles === null) particles = e.particles;
    if ('foliage' in e && foliage === null) foliage = hex(e.foliage);
  });

  const rankedThemes = [...themeScore.entries()].sort((a, b) => b[1] - a[1]);
  const themeFromWords = rankedThemes.length > 0;
  let theme: Theme;
  if (rankedThemes[0]) theme = rankedThemes[0][0];
  else {
    // Nothing recognisable: the unknown words choose a scene, so "a dragon" and "a teapot" differ.
    const choices: Theme[] = ['landscape', 'ocean', 'abstract', 'forest', 'landscape', 'desert', 'abstract', 'space'];
    const allowed = choices.filter((t) => !banned.themes.has(t));
    theme = allowed[(hash ^ unknownHash) % allowed.length] ?? 'abstract';
  }
  for (const f of THEME_FEATURES[theme]) if (!banned.features.has(f)) features.add(f);

  const rankedLight = [...lightScore.entries()].sort((a, b) => b[1] - a[1]);
  const lightingFromWords = rankedLight.length > 0;
  let lighting: Lighting;
  if (rankedLight[0]) lighting = rankedLight[0][0];
  else if (theme === 'space') lighting = 'night';
  else if (styles.has('neon')) lighting = theme === 'city' || theme === 'portrait' ? 'night' : 'sunset';
  else if (styles.has('watercolor') || styles.has('pastel') || styles.has('sketch')) {
    const soft: Lighting[] = ['day', 'dawn', 'sunset'];
    lighting = soft[fmixIndex(hash, soft.length)] ?? 'day';
  }
  else if (warmth < -0.3) lighting = 'day';
  else {
    const choices: Lighting[] = ['day', 'sunset', 'day', 'dawn', 'sunset', 'night'];
    const allowed = choices.filter((l) => !banned.lightings.has(l));
    lighting = allowed[fmixIndex(hash, allowed.length)] ?? 'day';
  }
  if ((lighting === 'night' || styles.has('neon')) && theme !== 'portrait' && !banned.features.has('stars')) features.add('stars');

  return {
    normalized,
    words: positive.words,
    unknownWords: positive.unknown,
    hash,
    unknownHash,
    theme,
    themeFromWords,
    features,
    lighting,
    lightingFromWords,
    styles,
    colours,
    foliage,
    particles,
    warmth: Math.max(-1, Math.min(1, warmth)),
    energy: Math.max(0, Math.min(1, energy)),
  };
}

function fmixIndex(h: number, n: number): number {
  return ((h >>> 7) ^ (h >>> 19)) % n;
}
