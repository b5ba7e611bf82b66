/**
 * The composer: turns a prompt, a seed and a duration into a plan (style, tempo, key, mode,
 * instrumentation, sections) and a list of note events. Everything random comes from seeded
 * generators, so the same request always gives the same score.
 *
 * Form: intro → verse/chorus sections (a bridge in longer pieces) → outro → a final tonic chord
 * that rings to the end. Harmony is a four-chord phrase per section type, voice-led; the melody
 * is built from two-bar rhythm cells that repeat and vary, with strong beats on chord tones; the
 * bass, accompaniment, arpeggios and drums follow the style's patterns, and every part's
 * presence and loudness follows the section's intensity.
 */
import { createRng, hash32, type Rng } from './dsp.ts';
import type { DrumId, InstrumentId, NoteEvent, SoundId } from './instruments.ts';
import { analysePrompt, normalisePrompt, STYLES, type InstrumentHint, type Mode, type PromptTraits, type StyleId } from './prompt.ts';
import { PROGRESSIONS, STYLE_DEFS, type BassStyle, type CompStyle, type Kit, type StyleDef } from './styles.ts';

export const MODE_STEPS: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  lydian: [0, 2, 4, 6, 7, 9, 11],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
  harmonicMinor: [0, 2, 3, 5, 7, 8, 11],
};
const MINORISH = new Set<Mode>(['minor', 'dorian', 'phrygian', 'harmonicMinor']);
export const NOTE_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'];

export type SectionName = 'intro' | 'verse' | 'chorus' | 'bridge' | 'outro';

export interface Section {
  name: SectionName;
  startBar: number;
  bars: number;
  startSec: number;
  /** 0..1: how many parts play and how loud. */
  intensity: number;
  /** Chord root (scale degree) for each bar. */
  chords: number[];
}

export interface Instrumentation {
  lead: InstrumentId | null;
  leadChorus: InstrumentId | null;
  leadShift: number;
  chords: InstrumentId | null;
  comp: CompStyle;
  arp: InstrumentId | null;
  arpStep: number;
  pad: InstrumentId | null;
  bass: InstrumentId | null;
  bassStyle: BassStyle;
  kit: Kit | null;
}

export interface MusicPlan {
  style: StyleId;
  styleLabel: string;
  bpm: number;
  beatsPerBar: 3 | 4;
  /** Pitch class of the tonic, 0 = C. */
  tonic: number;
  mode: Mode;
  /** e.g. "D dorian". */
  key: string;
  energy: number;
  valence: number;
  swing: number;
  instruments: Instrumentation;
  sections: Section[];
  /** Bars before the final chord. */
  bodyBars: number;
  /** When the final chord is struck, in seconds. */
  finalChordSec: number;
  durationSec: number;
  reverb: StyleDef['reverb'];
  /** -1 dark .. 1 bright: a master tilt. */
  brightness: number;
  textures: PromptTraits['textures'];
  lofi: boolean;
  /** Roman numerals of the verse and chorus phrases, for descriptions. */
  progression: { verse: string; chorus: string };
  matchedWords: string[];
  events: NoteEvent[];
}

export interface ComposeRequest {
  prompt: string;
  seed: number;
  durationSec: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

function chooseStyle(traits: PromptTraits, promptHash: number): StyleId {
  let best: StyleId | null = null;
  let bestScore = 0;
  for (const s of STYLES) {
    const score = traits.styleScores[s] ?? 0;
    if (score > bestScore + 1e-9) {
      best = s;
      bestScore = score;
    }
  }
  if (best) return best;
  // No genre words: the mood decides, and the prompt's own words break the tie.
  const pickFrom: StyleId[] =
    traits.energy < 0.36 ? ['piano', 'ambient', 'piano', 'folk'] : traits.energy > 0.64 ? ['electronic', 'rock', 'pop', 'chiptune'] : ['pop', 'folk', 'lofi', 'piano', 'jazz'];
  return pickFrom[promptHash % pickFrom.length]!;
}

function chooseMode(def: StyleDef, traits: PromptTraits, rng: Rng): Mode {
  if (traits.explicit.mode) return traits.explicit.mode;
  const v = traits.valence;
  if (traits.modeHint) {
    const hintMinor = MINORISH.has(traits.modeHint);
    if ((hintMinor && v <= 0.15) || (!hintMinor && v >= -0.15)) return traits.modeHint;
  }
  if (v > 0.2) return def.modes.happy;
  if (v < -0.2) return def.modes.sad;
  return rng.pick(def.modes.neutral);
}

/** Named instruments take over parts of the style's arrangement. */
function arrange(def: StyleDef, style: StyleId, hints: InstrumentHint[], traits: PromptTraits): Instrumentation {
  const ins: Instrumentation = {
    lead: def.lead,
    leadChorus: def.leadChorus ?? null,
    leadShift: def.leadShift,
    chords: def.chords,
    comp: def.comp,
    arp: def.arp,
    arpStep: def.arpStep,
    pad: def.pad,
    bass: def.bass,
    bassStyle: def.bassStyle,
    kit: def.kit,
  };
  let leadSet = false;
  const setLead = (id: InstrumentId, shift: number) => {
    if (leadSet) return false;
    ins.lead = id;
    ins.leadChorus = null;
    ins.leadShift = shift;
    leadSet = true;
    return true;
  };
  for (const hint of hints) {
    switch (hint) {
      case 'piano':
        if (ins.chords !== 'piano') {
          ins.chords = 'piano';
          ins.comp = style === 'jazz' || style === 'lofi' || style === 'hiphop' ? 'comp' : traits.energy < 0.5 ? 'broken' : 'block';
        }
        if (style === 'piano' || !hints.some((h) => h === 'flute' || h === 'violin' || h === 'synth' || h === 'brass' || h === 'sax' || h === 'bells'))
          setLead('piano', 0);
        break;
      case 'epiano':
        ins.chords = 'epiano';
        ins.comp = 'comp';
        break;
      case 'guitar':
        ins.chords = 'guitar';
        ins.comp = traits.energy < 0.45 ? 'fingerpick' : 'strum';
        if (style === 'piano') ins.lead = 'guitar';
        break;
      case 'eguitar':
        ins.chords = 'dguitar';
        ins.comp = 'power';
        break;
      case 'strings':
        ins.pad = 'strings';
        break;
      case 'violin':
        setLead('strings', 12);
        break;
      case 'cello':
        if (!setLead('lowstrings', 0)) ins.bass = 'lowstrings';
        break;
      case 'synth':
        setLead(style === 'ambient' ? 'softlead' : 'lead', 0);
        if (!ins.pad) ins.pad = 'pad';
        break;
      case 'flute':
        setLead('flute', 12);
        break;
      case 'bells':
        if (!setLead('bell', 12)) {
          ins.arp = 'bell';
          ins.arpStep = 1;
        }
        break;
      case 'organ':
        ins.chords = 'organ';
        ins.comp = 'pad';
        break;
      case 'brass':
        setLead('brass', 0);
        break;
      case 'choir':
        ins.pad = 'choir';
        break;
      case 'sax':
        setLead('sax', -12);
        break;
      case 'vibes':
        setLead('vibes', 0);
        break;
      case 'harp':
        ins.arp = 'harp';
        ins.arpStep = 0.5;
        break;
      case 'marimba':
        if (!setLead('marimba', 12)) ins.arp = 'marimba';
        break;
      case 'bass808':
        ins.bass = 'bass808';
        ins.bassStyle = 'trap';
        break;
      case 'pad':
        ins.pad = 'warmpad';
        break;
    }
  }
  if (traits.drums === false) ins.kit = null;
  if (traits.drums === true && !ins.kit) ins.kit = traits.energy > 0.6 ? 'pop' : style === 'piano' || style === 'ambient' ? 'light' : 'boombap';
  // Calm prompts on a drum-led style lose the drums only when asked; very calm solo styles never gain them.
  return ins;
}

/**
 * The sections for `bars` bars of body (the final chord comes after): an intro, phrases of four
 * or eight bars, the last one always a chorus, and an outro.
 */
function planForm(bars: number): { name: SectionName; bars: number }[] {
  if (bars <= 3) return [{ name: 'verse', bars }];
  const intro = bars >= 20 ? 4 : bars >= 8 ? 2 : 1;
  const outro = bars >= 24 ? 4 : bars >= 10 ? 2 : 1;
  const core = bars - intro - outro;
  const lengths: number[] = [];
  if (core <= 4) lengths.push(core);
  else if (core < 8) lengths.push(Math.floor(core / 2), core - Math.floor(core / 2));
  else {
    const unit = core >= 24 ? 8 : 4;
    let left = core;
    while (left > 0) {
      let n = Math.min(unit, left);
      if (left - n > 0 && left - n < 3) n = left;
      lengths.push(n);
      left -= n;
    }
  }
  const k = lengths.length;
  const names: SectionName[] =
    k === 1
      ? ['verse']
      : k === 2
        ? ['verse', 'chorus']
        : k === 3
          ? ['verse', 'chorus', 'chorus']
          : k === 4
            ? ['verse', 'chorus', 'bridge', 'chorus']
            : k === 5
              ? ['verse', 'chorus', 'verse', 'bridge', 'chorus']
              : Array.from({ length: k }, (_, i): SectionName => (i >= k - 3 ? (['bridge', 'chorus', 'chorus'] as const)[i - (k - 3)]! : i % 2 === 0 ? 'verse' : 'chorus'));
  return [{ name: 'intro', bars: intro }, ...lengths.map((n, i) => ({ name: names[i]!, bars: n })), { name: 'outro', bars: outro }];
}

const INTENSITY: Record<SectionName, number> = { intro: 0.3, verse: 0.62, chorus: 1, bridge: 0.5, outro: 0.38 };

interface MelodyNote {
  /** Beats from the section start. */
  on: number;
  len: number;
  deg: number;
}

export function composeMusic(request: ComposeRequest): MusicPlan {
  const traits = analysePrompt(request.prompt);
  const norm = normalisePrompt(request.prompt).trim();
  const promptHash = hash32(norm);
  const seed = (Math.trunc(request.seed) >>> 0) ^ 0;
  const base = hash32(`${seed}`, promptHash);
  const sub = (name: string) => createRng(hash32(name, base));
  const style = chooseStyle(traits, (promptHash ^ traits.unknownHash) >>> 0);
  const def = STYLE_DEFS[style];
  const global = sub('global');
  const mode = chooseMode(def, traits, global);
  const tonic = traits.explicit.tonic ?? global.int(0, 11);
  const beatsPerBar: 3 | 4 = traits.explicit.beatsPerBar ?? 4;
  const energy = traits.energy;
  const ins = arrange(def, style, traits.instruments, traits);
  const swing = def.swing;

  // Tempo from the style's range and the energy, then fitted so whole bars end with a final chord.
  const [lo, hi] = def.bpm;
  let targetBpm = traits.explicit.bpm ?? clamp((lo + (hi - lo) * energy) * traits.tempoFactor + global.range(-2, 2), lo * 0.85, hi * 1.1);
  targetBpm = clamp(targetBpm, 40, 220);
  const duration = request.durationSec;
  const barOf = (bpm: number) => (beatsPerBar * 60) / bpm;
  let tail = clamp(barOf(targetBpm), 2, 4);
  tail = Math.min(tail, duration * 0.35);
  const bodySec = Math.max(0.5, duration - tail);
  let bodyBars = Math.max(1, Math.round(bodySec / barOf(targetBpm)));
  let bpm = (bodyBars * beatsPerBar * 60) / bodySec;
  if (traits.explicit.bpm !== undefined || Math.abs(bpm / targetBpm - 1) > 0.12) {
    // Keep the tempo; the final chord rings a little longer instead.
    bpm = targetBpm;
    bodyBars = Math.floor(bodySec / barOf(bpm));
    // A piece shorter than a bar plays one quicker bar.
    if (bodyBars < 1) {
      bodyBars = 1;
      bpm = (beatsPerBar * 60) / bodySec;
    }
  }
  bpm = Math.round(bpm * 100) / 100;
  const spb = 60 / bpm;
  const barSec = beatsPerBar * spb;
  const finalChordSec = bodyBars * barSec;

  // Harmony.
  const minorish = MINORISH.has(mode);
  const family = PROGRESSIONS[def.progressions][minorish ? 'minor' : 'major'];
  const harm = sub('harmony');
  const verseProg = harm.pick(family);
  let chorusProg = harm.pick(family);
  if (family.length > 1) while (chorusProg === verseProg) chorusProg = harm.pick(family);
  const bridgeProg = harm.pick(family).map((d) => (d + 3) % 7);
  const raiseLeading = minorish && mode !== 'dorian' && mode !== 'phrygian' && (style === 'classical' || style === 'orchestral' || style === 'jazz' || style === 'piano');
  const stepsFor = (root: number): readonly number[] => (raiseLeading && ((root % 7) + 7) % 7 === 4 ? MODE_STEPS.harmonicMinor : MODE_STEPS[mode]);
  const degMidi = (deg: number, tonicMidi: number, steps: readonly number[] = MODE_STEPS[mode]) => {
    const oct = Math.floor(deg / 7);
    return tonicMidi + 12 * oct + steps[deg - oct * 7]!;
  };
  const useSevenths = harm.next() < def.sevenths;
  const ninths = def.sevenths > 0.9 && harm.chance(0.6);

  const form = planForm(bodyBars);
  const sections: Section[] = [];
  let barCursor = 0;
  for (const f of form) {
    const prog = f.name === 'chorus' ? chorusProg : f.name === 'bridge' ? bridgeProg : verseProg;
    const chords: number[] = [];
    for (let b = 0; b < f.bars; b++) chords.push(prog[Math.floor(b / def.chordBars) % prog.length]!);
    // Sections that lead to the end settle on the tonic; the last bar of a verse before a chorus
    // leans on the dominant.
    if (f.name === 'outro' && chords.length > 1) chords[chords.length - 1] = minorish && !raiseLeading ? 6 : 4;
    sections.push({ name: f.name, startBar: barCursor, bars: f.bars, startSec: barCursor * barSec, intensity: INTENSITY[f.name], chords });
    barCursor += f.bars;
  }

  // Registers.
  const tonicIn = (lo: number) => lo + ((tonic - (lo % 12) + 12) % 12);
  const leadTonic = tonicIn(62) + ins.leadShift;
  const chordCenter = 62;
  const bassTonic = tonicIn(ins.bass === 'upright' || ins.bass === 'lowstrings' ? 36 : 33);

  const events: NoteEvent[] = [];
  const human = sub('human');
  const swingBeat = (beat: number) => {
    if (swing <= 0) return beat;
    const u = def.swingUnit;
    const pair = Math.floor(beat / (2 * u) + 1e-9);
    const f = beat - pair * 2 * u;
    if (Math.abs(f - u) < 1e-6) return pair * 2 * u + u * (1 + swing / 3);
    return beat;
  };
  const dyn = def.dynamics * (0.78 + 0.35 * energy);
  const push = (sound: SoundId, bar: number, beat: number, durBeats: number, midi: number, vel: number, pan = 0) => {
    let time = (bar * beatsPerBar + swingBeat(beat)) * spb;
    if (def.humanize > 0) time += human.gauss() * def.humanize * 0.5;
    const v = clamp(vel * dyn * (def.humanize > 0 ? 1 + human.gauss() * 0.04 : 1), 0.05, 1);
    events.push({ time: Math.max(0, time), dur: Math.max(0.03, durBeats * spb), midi, vel: v, sound, pan });
  };

  // Voice leading: the inversion of the chord closest to the previous one, near the center.
  let prevVoicing: number[] | null = null;
  const chordTones = (root: number, withSeventh: boolean, withNinth: boolean) => {
    const degs = [root, root + 2, root + 4];
    if (withSeventh) degs.push(root + 6);
    if (withNinth) degs.push(root + 8);
    return degs;
  };
  const voiceChord = (root: number, center: number): number[] => {
    const steps = stepsFor(root);
    const degs = chordTones(root, useSevenths, ninths);
    const pcs = degs.map((d) => degMidi(d, tonic, steps) % 12);
    let best: number[] = [];
    let bestCost = Infinity;
    for (let inv = 0; inv < pcs.length; inv++) {
      const order = [...pcs.slice(inv), ...pcs.slice(0, inv)];
      for (let lowest = center - 12; lowest <= center; lowest++) {
        if (((lowest % 12) + 12) % 12 !== order[0]) continue;
        const notes = [lowest];
        for (let k = 1; k < order.length; k++) {
          let n = notes[k - 1]! + 1;
          while (((n % 12) + 12) % 12 !== order[k]) n++;
          notes.push(n);
        }
        const mean = notes.reduce((a, b) => a + b, 0) / notes.length;
        let cost = Math.abs(mean - center) * 0.6;
        if (prevVoicing && prevVoicing.length === notes.length) for (let k = 0; k < notes.length; k++) cost += Math.abs(notes[k]! - prevVoicing[k]!);
        if (cost < bestCost) {
          bestCost = cost;
          best = notes;
        }
      }
    }
    prevVoicing = best;
    return best;
  };
  const bassNote = (root: number) => degMidi(((root % 7) + 7) % 7, bassTonic, stepsFor(root));
  const bassFifth = (root: number) => degMidi((((root % 7) + 7) % 7) + 4, bassTonic, stepsFor(root));

  // Melody, one per section type, reused when the section comes back.
  const melodies = new Map<string, MelodyNote[]>();
  const melodyFor = (sec: Section): MelodyNote[] => {
    const key = `${sec.name}:${sec.bars}`;
    const cached = melodies.get(key);
    if (cached) return cached;
    const m = makeMelody(sub(`melody:${sec.name}`), sec, beatsPerBar, def.density, energy, sec.name === 'chorus' ? 2 : sec.name === 'bridge' ? -1 : 0);
    melodies.set(key, m);
    return m;
  };

  const drumRng = sub('drums');
  const arpRng = sub('arp');
  const compRng = sub('comp');
  const compPatterns4 = [
    [0, 1.5],
    [0, 2.5],
    [0.5, 2],
    [1.5, 3],
    [0, 1.5, 3],
    [0, 2, 3.5],
  ];
  const compPatterns3 = [
    [0, 1.5],
    [0, 1, 2],
    [0.5, 2],
  ];
  const strumPatterns = [
    [0, 1, 1.5, 2.5, 3, 3.5],
    [0, 1, 2, 2.5, 3.5],
    [0, 1.5, 2, 3, 3.5],
  ];
  // One accompaniment rhythm per section type: verses and choruses groove differently.
  const sectionComp = new Map<string, number[]>();
  const patternFor = (name: SectionName, list: number[][]) => {
    const key = `${name === 'intro' || name === 'outro' ? 'verse' : name}:${list.length}`;
    let p = sectionComp.get(key);
    if (!p) {
      p = compRng.pick(list);
      sectionComp.set(key, p);
    }
    return p;
  };

  for (let si = 0; si < sections.length; si++) {
    const sec = sections[si]!;
    const next = sections[si + 1];
    const inten = sec.intensity;
    const lead = sec.name === 'chorus' && ins.leadChorus ? ins.leadChorus : ins.lead;
    // Melody.
    if (lead && (sec.name === 'verse' || sec.name === 'chorus' || sec.name === 'bridge' || (sec.name === 'outro' && sec.bars >= 2))) {
      const mel = melodyFor(sec.name === 'outro' ? { ...sec, name: 'verse' } : sec);
      const limit = sec.name === 'outro' ? Math.min(sec.bars - 1, 2) * beatsPerBar : Infinity;
      for (const n of mel) {
        if (n.on >= limit) break;
        const bar = sec.startBar + Math.floor(n.on / beatsPerBar);
        const beat = n.on - Math.floor(n.on / beatsPerBar) * beatsPerBar;
        const root = sec.chords[Math.min(sec.chords.length - 1, Math.floor(n.on / beatsPerBar))]!;
        const midi = degMidi(n.deg, leadTonic, stepsFor(root));
        const strong = beat === 0 ? 1 : beat % 2 === 0 ? 0.9 : 0.82;
        const legato = lead === 'piano' || lead === 'guitar' || lead === 'marimba' || lead === 'vibes' || lead === 'bell' ? 1.05 : 0.92;
        push(lead, bar, beat, n.len * legato, midi, (0.62 + 0.25 * inten) * strong);
      }
    }
    for (let b = 0; b < sec.bars; b++) {
      const bar = sec.startBar + b;
      const root = sec.chords[b]!;
      const chordStart = b % def.chordBars === 0 || b === 0;
      const chordBeats = def.chordBars * beatsPerBar;
      const voicing = voiceChord(root, chordCenter);
      const lastBar = b === sec.bars - 1;
      // Pad.
      if (ins.pad && chordStart && !(sec.name === 'intro' && inten < 0.3 && ins.chords && b < sec.bars - 1)) {
        const padVel = 0.45 + 0.35 * inten;
        const padNotes = ins.pad === 'warmpad' ? [voicing[0]! - 12, ...voicing] : voicing;
        padNotes.forEach((m, k) => push(ins.pad!, bar, 0, chordBeats + 0.15, m, padVel, (k / padNotes.length - 0.5) * 0.6));
      }
      // Accompaniment.
      if (ins.chords) compBar(ins.chords, ins.comp, bar, sec.name, root, voicing, inten, chordStart, chordBeats);
      // Arpeggio: the chorus's extra layer; with no pad or chords it carries the harmony throughout.
      const arpPlays =
        !ins.pad && !ins.chords
          ? true
          : sec.name === 'chorus' ||
            (sec.name === 'verse' && style !== 'electronic' && (energy > 0.55 || ins.arp === 'bell' || ins.arp === 'harp')) ||
            (sec.name === 'intro' && style === 'electronic' && b >= sec.bars / 2);
      if (ins.arp && arpPlays) arpBar(ins.arp, bar, root, voicing, inten, sec.name);
      // Bass.
      const bassOnly = !ins.pad && !ins.chords && !ins.arp;
      if (ins.bass && (sec.name !== 'intro' || bassOnly || (style === 'ambient' && b > 0) || (b >= sec.bars / 2 && energy > 0.5))) {
        const nextRoot = b + 1 < sec.bars ? sec.chords[b + 1]! : next ? next.chords[0]! : 0;
        bassBar(ins.bass, ins.bassStyle, bar, root, nextRoot, inten, chordStart, chordBeats);
      }
      // Drums.
      if (ins.kit) {
        const fill = lastBar && (next?.name === 'chorus' || !next) && sec.bars >= 2;
        drumBar(ins.kit, bar, sec, b, fill);
      }
    }
  }

  // The final chord: tonic everywhere, held to the end.
  const tailBeats = (duration - finalChordSec) / spb;
  prevVoicing = null;
  const finalVoicing = voiceChord(0, chordCenter);
  const holdBeats = Math.max(0.5, tailBeats * 0.85);
  const finalInst = ins.chords ?? ins.pad ?? ins.lead;
  if (finalInst) finalVoicing.forEach((m, k) => push(finalInst, bodyBars, 0, holdBeats, m, 0.6, (k / finalVoicing.length - 0.5) * 0.5));
  if (ins.pad && ins.pad !== finalInst) finalVoicing.forEach((m) => push(ins.pad!, bodyBars, 0, holdBeats, m, 0.5));
  if (ins.bass) push(ins.bass, bodyBars, 0, holdBeats, bassNote(0), 0.7);
  if (ins.lead && ins.lead !== finalInst) push(ins.lead, bodyBars, 0, holdBeats, degMidi(7, leadTonic), 0.55);
  if (ins.kit && energy > 0.45) {
    const kick = ins.kit === 'trap' ? 'kick808' : ins.kit === 'chip' ? 'chipkick' : ins.kit === 'orchestral' ? 'timpani' : 'kick';
    push(kick, bodyBars, 0, 1, bassTonic, 0.9);
    if (ins.kit !== 'chip') push('crash', bodyBars, 0, 1, 60, 0.8);
  }

  events.sort((a, b) => a.time - b.time || a.midi - b.midi);

  return {
    style,
    styleLabel: def.label,
    bpm,
    beatsPerBar,
    tonic,
    mode,
    key: `${NOTE_NAMES[tonic]} ${mode === 'harmonicMinor' ? 'harmonic minor' : mode}`,
    energy,
    valence: traits.valence,
    swing,
    instruments: ins,
    sections,
    bodyBars,
    finalChordSec,
    durationSec: duration,
    reverb: {
      wet: clamp(def.reverb.wet + traits.space * 0.25, 0.03, 0.7),
      seconds: clamp(def.reverb.seconds * (1 + traits.space * 0.6), 0.6, 7),
      size: clamp(def.reverb.size * (1 + traits.space * 0.3), 0.5, 2),
      damping: def.reverb.damping,
    },
    brightness: clamp(traits.brightness + (energy - 0.5) * 0.4, -1, 1),
    textures: traits.textures,
    lofi: style === 'lofi',
    progression: { verse: verseProg.map((d) => roman(d, mode)).join('–'), chorus: chorusProg.map((d) => roman(d, mode)).join('–') },
    matchedWords: traits.matched,
    events,
  };

  /* --- Parts, as closures over the plan above. ------------------------------------------- */

  function compBar(inst: InstrumentId, comp: CompStyle, bar: number, name: SectionName, root: number, voicing: number[], inten: number, chordStart: boolean, chordBeats: number) {
    const vel = 0.45 + 0.3 * inten;
    const bpb = beatsPerBar;
    switch (comp) {
      case 'pad':
        if (chordStart) voicing.forEach((m, k) => push(inst, bar, 0, chordBeats + 0.1, m, vel, (k / voicing.length - 0.5) * 0.5));
        break;
      case 'block': {
        const hits = bpb === 3 ? [0, 1, 2] : inten > 0.8 ? [0, 2] : [0];
        for (const h of hits) voicing.forEach((m) => push(inst, bar, h, bpb === 3 && h > 0 ? 0.8 : bpb / hits.length, m, vel * (h === 0 ? 1 : 0.8)));
        if (inten > 0.5) push(inst, bar, 0, bpb, bassNote(root) + 12, vel * 0.9);
        break;
      }
      case 'broken': {
        // Left-hand piano: root, fifth, tenth, fifth ... held with the pedal to the bar's end.
        const low = bassNote(root) + 12;
        const rd = ((root % 7) + 7) % 7;
        const steps = stepsFor(root);
        const third = degMidi(rd + 2, 0, steps) - degMidi(rd, 0, steps);
        const fifth = degMidi(rd + 4, 0, steps) - degMidi(rd, 0, steps);
        const pattern = [low, low + fifth, low + 12 + third, low + fifth];
        const step = energy < 0.32 && inten < 0.9 ? 1 : 0.5;
        let k = 0;
        for (let beat = 0; beat < bpb - 1e-9; beat += step, k++) {
          push(inst, bar, beat, bpb - beat + 0.3, pattern[k % pattern.length]!, vel * (beat === 0 ? 0.85 : 0.62));
        }
        if (inten >= 0.9) voicing.forEach((m) => push(inst, bar, 0, bpb, m, vel * 0.45));
        break;
      }
      case 'alberti': {
        const [r, t, f] = [voicing[0]!, voicing[1]!, voicing[2]!];
        const pattern = [r, f, t, f];
        for (let k = 0; k < bpb * 2; k++) push(inst, bar, k * 0.5, 0.55, pattern[k % 4]!, vel * (k % 2 === 0 ? 0.75 : 0.6));
        break;
      }
      case 'comp': {
        const pattern = patternFor(name, bpb === 3 ? compPatterns3 : compPatterns4);
        const hold = inst === 'epiano' ? 1.4 : 0.9;
        for (const h of pattern) voicing.forEach((m, k) => push(inst, bar, h, hold, m, vel * (h === 0 ? 0.9 : 0.75), (k - 1) * 0.1));
        break;
      }
      case 'strum':
      case 'fingerpick': {
        const low = bassNote(root) + 12;
        const guitar = [low, low + 7, low + 12, ...voicing.filter((v) => v > low + 12).slice(0, 3)];
        if (comp === 'fingerpick') {
          const order = [0, 2, 3, 1, 4, 2, 3, 1];
          for (let k = 0; k < bpb * 2; k++) push(inst, bar, k * 0.5, 1.2, guitar[order[k % order.length]! % guitar.length]!, vel * (k === 0 ? 0.9 : 0.7));
          break;
        }
        const pattern = bpb === 3 ? [0, 1, 2] : patternFor(name, strumPatterns);
        pattern.forEach((h, i) => {
          const down = Number.isInteger(h);
          const notes = down ? guitar : guitar.slice(2).reverse();
          const end = pattern[i + 1] ?? bpb;
          notes.forEach((m, k) => push(inst, bar, h + (k * 0.012) / spb, end - h + 0.1, m, vel * (down ? 0.85 : 0.6) * (1 - k * 0.03)));
        });
        break;
      }
      case 'stabs':
        for (let h = 0.5; h < bpb; h += 1) voicing.forEach((m) => push(inst, bar, h, 0.3, m, vel * 0.8));
        break;
      case 'power': {
        const low = bassNote(root) + 12;
        const notes = [low, low + 7, low + 12];
        if (inten >= 0.9) for (let h = 0; h < bpb; h += 1) notes.forEach((m) => push(inst, bar, h, 1, m, vel));
        else for (let h = 0; h < bpb; h += 0.5) notes.forEach((m) => push(inst, bar, h, 0.3, m, vel * (h % 1 === 0 ? 0.9 : 0.75)));
        break;
      }
    }
  }

  function arpBar(inst: InstrumentId, bar: number, root: number, voicing: number[], inten: number, name: SectionName) {
    const step = ins.arpStep;
    const vel = 0.4 + 0.35 * inten;
    if (inst === 'lowstrings') {
      // Orchestral ostinato on the root and fifth.
      const r = bassNote(root) + 12;
      const seq = [r, r, r + 7, r];
      for (let k = 0; k < beatsPerBar / step; k++) push(inst, bar, k * step, step * 0.55, seq[k % seq.length]!, vel * (k % 2 === 0 ? 1 : 0.8));
      return;
    }
    const tones = [...voicing, ...voicing.map((v) => v + 12)];
    const n = Math.round(beatsPerBar / step);
    const shape = arpRng.int(0, 2);
    for (let k = 0; k < n; k++) {
      let idx: number;
      if (shape === 0) idx = k % tones.length;
      else if (shape === 1) {
        const period = tones.length * 2 - 2;
        const p = k % period;
        idx = p < tones.length ? p : period - p;
      } else idx = (k * 3) % tones.length;
      const ring = inst === 'bell' || inst === 'harp' ? step * 3 : step * 0.8;
      if (inst === 'bell' && name !== 'chorus' && k % 2 === 1) continue;
      push(inst, bar, k * step, ring, tones[idx]! + (inst === 'bell' ? 12 : 0), vel * (k % 4 === 0 ? 1 : 0.8));
    }
  }

  function bassBar(inst: InstrumentId, bassStyle: BassStyle, bar: number, root: number, nextRoot: number, inten: number, chordStart: boolean, chordBeats: number) {
    const r = bassNote(root);
    const f = bassFifth(root);
    const vel = 0.6 + 0.3 * inten;
    const bpb = beatsPerBar;
    switch (bassStyle) {
      case 'sustained':
        if (chordStart) push(inst, bar, 0, chordBeats, r, vel);
        break;
      case 'pop':
        if (bpb === 3) {
          push(inst, bar, 0, 2, r, vel);
          push(inst, bar, 2, 1, f, vel * 0.8);
        } else {
          push(inst, bar, 0, 1.4, r, vel);
          push(inst, bar, 1.5, 0.45, r, vel * 0.75);
          push(inst, bar, 2, 1.4, r, vel * 0.9);
          push(inst, bar, 3.5, 0.45, inten > 0.8 ? f : r, vel * 0.75);
        }
        break;
      case 'eighths':
        for (let h = 0; h < bpb; h += 0.5) push(inst, bar, h, 0.42, h === bpb - 0.5 && inten > 0.8 ? r + 12 : r, vel * (h % 1 === 0 ? 1 : 0.8));
        break;
      case 'offbeat':
        for (let h = 0; h < bpb; h += 1) {
          if (inten >= 0.9) push(inst, bar, h, 0.22, r - 12 >= 28 ? r - 12 : r, vel * 0.6);
          push(inst, bar, h + 0.5, 0.4, r, vel);
        }
        break;
      case 'walking': {
        const steps = stepsFor(root);
        const rootDeg = ((root % 7) + 7) % 7;
        const target = bassNote(nextRoot);
        const line = [r, degMidi(rootDeg + (compRng.chance(0.5) ? 1 : 2), bassTonic, steps), degMidi(rootDeg + 4, bassTonic, steps), target + (target > r ? -1 : 1)];
        const beats = bpb === 3 ? [line[0]!, line[2]!, line[3]!] : line;
        beats.forEach((m, k) => push(inst, bar, k, 0.95, m, vel * (k === 0 ? 1 : 0.85)));
        break;
      }
      case 'rootfifth':
        if (bpb === 3) push(inst, bar, 0, 1, r, vel);
        else {
          push(inst, bar, 0, 1.8, r, vel);
          push(inst, bar, 2, 1.8, f, vel * 0.85);
        }
        break;
      case 'lofi':
        push(inst, bar, 0, 1.3, r, vel);
        if (bpb === 4) {
          push(inst, bar, 1.75, 0.5, r, vel * 0.7);
          push(inst, bar, 2.5, 1.2, f, vel * 0.85);
        }
        break;
      case 'trap':
        push(inst, bar, 0, bpb === 4 ? 2.5 : 2, r, vel);
        if (bpb === 4) push(inst, bar, 2.75, 1.1, inten > 0.8 ? f : r, vel * 0.85);
        break;
    }
  }

  function drumBar(kit: Kit, bar: number, sec: Section, b: number, fill: boolean) {
    const inten = sec.intensity;
    const bpb = beatsPerBar;
    const steps = bpb * 4;
    const hit = (id: DrumId, step: number, vel: number, midi = 60) => push(id, bar, step / 4, 0.5, midi, vel);
    const pat = (s: string, id: DrumId, vel: number, accent = 1.15) => {
      for (let i = 0; i < steps; i++) {
        const c = s[i % s.length];
        if (c === 'x') hit(id, i, vel * (i % 4 === 0 ? accent : 1));
        else if (c === 'o') hit(id, i, vel * 0.55);
      }
    };
    const first = b === 0;
    if (first && sec.name === 'chorus' && kit !== 'chip' && kit !== 'light') hit('crash', 0, 0.85);
    const full = inten >= 0.9;
    const mid = inten >= 0.5;
    const three = bpb === 3;
    if (fill && kit !== 'light') {
      // The last beats of the bar become a fill.
      const fillFrom = three ? 8 : 8;
      const tom = kit === 'rock' || kit === 'orchestral';
      for (let i = fillFrom; i < steps; i++) {
        const v = 0.45 + (0.45 * (i - fillFrom)) / (steps - fillFrom);
        if (tom) hit(kit === 'orchestral' ? 'timpani' : 'tom', i, v, bassTonic + 12 - Math.floor((i - fillFrom) / 2) * 2);
        else hit(kit === 'chip' ? 'chipnoise' : kit === 'jazz' ? 'snare' : 'snare', i, v * (kit === 'jazz' ? 0.5 : 1));
      }
    }
    const end = fill && kit !== 'light' ? 8 : steps;
    const upTo = (s: string) => s.slice(0, end) + '.'.repeat(Math.max(0, steps - end));
    switch (kit) {
      case 'four':
        if (mid || (energy > 0.6 && sec.name !== 'intro')) pat(upTo(three ? 'x...x...x...' : 'x...x...x...x...'), 'kick', 0.9, 1);
        if (mid) pat(upTo(three ? '....x.......' : '....x.......x...'), 'clap', 0.75);
        pat(upTo(three ? '..x...x...x.' : '..x...x...x...x.'), 'openhat', inten > 0.4 ? 0.55 : 0.35);
        if (full) pat(upTo('xxxxxxxxxxxxxxxx'), 'hat', 0.35, 1.4);
        break;
      case 'pop':
        if (mid) pat(upTo(three ? 'x.......x...' : 'x.....x.x.......'), 'kick', 0.85);
        if (mid) pat(upTo(three ? '....x...x...' : '....x.......x...'), 'snare', 0.75);
        pat(upTo(full ? 'x.x.x.x.x.x.x.x.' : mid ? 'x...x...x...x...' : '..x...x...x...x.'), 'hat', 0.5);
        if (full && b % 2 === 1) hit('openhat', three ? 10 : 14, 0.5);
        break;
      case 'rock':
        if (mid) pat(upTo(three ? 'x.....x.....' : full ? 'x.....x.x.x.....' : 'x.......x.......'), 'kick', 0.9);
        if (mid) pat(upTo(three ? '....x...x...' : '....x.......x...'), 'snare', 0.85);
        pat(upTo('x.x.x.x.x.x.x.x.'), full ? 'ride' : 'hat', full ? 0.55 : 0.55);
        break;
      case 'boombap':
        if (mid || inten > 0.35) pat(upTo(three ? 'x.....x.....' : 'x......x..x.....'), 'kick', 0.85);
        if (mid) pat(upTo(three ? '....x.......' : '....x.......x...'), 'snare', 0.7);
        pat(upTo('x.x.x.x.x.x.x.x.'), 'hat', mid ? 0.45 : 0.3);
        if (full && b % 2 === 1) hit('rim', three ? 11 : 15, 0.5);
        break;
      case 'trap':
        pat(upTo(three ? 'x.....x.....' : 'x......x..x.....'), 'kick808', 0.9);
        if (mid) pat(upTo(three ? '......x.....' : '........x.......'), 'clap', 0.8);
        pat(upTo('xxxxxxxxxxxxxxxx'), 'hat', 0.35);
        break;
      case 'jazz':
        // Ride in swung eighths, hi-hat foot on 2 and 4, feathered kick, brushes at low intensity.
        pat(upTo(three ? 'x...x.x.x...' : 'x...x.x.x...x.x.'), mid ? 'ride' : 'brush', mid ? 0.6 : 0.7, 1);
        if (!three) pat(upTo('....x.......x...'), 'hat', 0.4);
        if (mid) pat(upTo(three ? 'x...........' : 'x.......x.......'), 'kick', 0.22);
        if (full && drumRng.chance(0.4)) hit('snare', 10 + 2 * drumRng.int(0, 2), 0.3);
        break;
      case 'orchestral':
        if (first) hit('timpani', 0, 0.6 + 0.3 * inten, bassTonic);
        if (full) {
          pat(upTo(three ? 'x.....x.....' : 'x.....x...x.....'), 'tom', 0.7);
          if (!fill) hit('timpani', three ? 6 : 8, 0.7, bassTonic + 7 - 12 >= 28 ? bassTonic - 5 : bassTonic + 7);
        } else if (mid && b % 2 === 1) hit('timpani', 0, 0.45, bassTonic);
        break;
      case 'chip':
        if (mid) pat(upTo(three ? 'x.....x.....' : 'x.......x.......'), 'chipkick', 0.9);
        if (mid) pat(upTo(three ? '....x.......' : '....x.......x...'), 'chipnoise', 0.8);
        if (full) pat(upTo('..x...x...x...x.'), 'chipnoise', 0.35, 1);
        break;
      case 'light':
        pat(three ? 'x.o.x.o.x.o.' : 'x.o.x.o.x.o.x.o.', 'shaker', mid ? 0.7 : 0.45, 1.3);
        if (mid) pat(three ? 'x...........' : 'x.......x.......', 'kick', 0.45);
        break;
    }
  }
}

function roman(deg: number, mode: Mode): string {
  const d = ((deg % 7) + 7) % 7;
  const steps = MODE_STEPS[mode];
  const third = (steps[(d + 2) % 7]! - steps[d]! + 12) % 12;
  return third === 3 ? ROMAN[d]!.toLowerCase() : ROMAN[d]!;
}

/**
 * A melody for one section: two-bar rhythm cells (A, B, A, B′…) whose notes walk the scale
 * with a pull toward the middle of the range, land on chord tones on strong beats, and end the
 * section on the tonic.
 */
function makeMelody(rng: Rng, sec: Section, bpb: number, density: number, energy: number, lift: number): MelodyNote[] {
  const d = clamp(density * (0.65 + 0.7 * energy) + (sec.name === 'chorus' ? 0.12 : sec.name === 'bridge' ? -0.1 : 0), 0.05, 0.95);
  const cellBeats = bpb * 2;
  const cells = [rhythmCell(rng, cellBeats, d, bpb), rhythmCell(rng, cellBeats, d, bpb)];
  const totalBeats = sec.bars * bpb;
  const notes: MelodyNote[] = [];
  const center = 3 + lift;
  const lo = center - 5;
  const hi = center + 6;
  let deg = center - 1;
  const cellDegrees: number[][] = [];
  const chordAt = (beat: number) => sec.chords[Math.min(sec.chords.length - 1, Math.floor(beat / bpb))]!;
  const nearestChordTone = (x: number, root: number) => {
    let best = x;
    let bestDist = Infinity;
    for (let c = x - 3; c <= x + 3; c++) {
      const rel = (((c - root) % 7) + 7) % 7;
      if (rel === 0 || rel === 2 || rel === 4) {
        const dist = Math.abs(c - x) + (c > hi || c < lo ? 2 : 0);
        if (dist < bestDist) {
          bestDist = dist;
          best = c;
        }
      }
    }
    return best;
  };
  let slot = 0;
  for (let start = 0; start < totalBeats; start += cellBeats, slot++) {
    const which = slot % 2;
    const cell = cells[which]!;
    const lastSlot = start + cellBeats >= totalBeats;
    const repeat = slot >= 2 ? cellDegrees[which] : undefined;
    const degrees: number[] = [];
    let repeats = 0;
    cell.forEach((n, i) => {
      const on = start + n.on;
      if (on >= totalBeats) return;
      let len = Math.min(n.len, totalBeats - on);
      const root = chordAt(on);
      const beatInBar = n.on % bpb;
      const strong = beatInBar === 0 || (bpb === 4 && beatInBar === 2) || n.len >= 1.5;
      if (repeat && repeat[i] !== undefined) {
        // The same cell again: same contour, moved with the harmony.
        const shift = clamp(root - chordAt(start - 2 * cellBeats + n.on), -2, 2);
        deg = repeat[i]! + shift;
      } else {
        let step = rng.weighted([-3, -2, -1, 0, 1, 2, 3, 4], [0.5, 1.4, 3, 1, 3, 1.4, 0.6, 0.3]);
        if (deg > center + 3 && step > 0) step = -step;
        if (deg < center - 3 && step < 0) step = -step;
        if (step === 0 && ++repeats > 1) step = rng.chance(0.5) ? 1 : -1;
        if (step !== 0) repeats = 0;
        deg += step;
      }
      deg = clamp(deg, lo, hi);
      if (strong) deg = nearestChordTone(deg, root);
      const isLast = i === cell.length - 1 && lastSlot;
      if (isLast) {
        deg = nearestChordTone(deg, 0);
        const rel = ((deg % 7) + 7) % 7;
        if (rel !== 0 && sec.name !== 'intro') deg = Math.round(deg / 7) * 7;
        len = Math.max(len, totalBeats - on);
      }
      degrees.push(deg);
      notes.push({ on, len, deg });
    });
    if (!cellDegrees[which]) cellDegrees[which] = degrees;
  }
  return notes;
}

function rhythmCell(rng: Rng, beats: number, density: number, bpb: number): { on: number; len: number }[] {
  const options: [number[], number[]] =
    density < 0.25
      ? [
          [1, 2, 3, 4],
          [2, 3, 1, 1.5],
        ]
      : density < 0.55
        ? [
            [0.5, 1, 1.5, 2, 3],
            [2, 4, 1.5, 2, 0.6],
          ]
        : [
            [0.25, 0.5, 0.75, 1, 1.5, 2],
            [1, 4, 0.6, 2.5, 1, 0.6],
          ];
  const out: { on: number; len: number }[] = [];
  let p = 0;
  const restP = density < 0.25 ? 0.1 : 0.16;
  while (p < beats - 1e-9) {
    const fits = options[0].filter((l) => l <= beats - p + 1e-9);
    const len = fits.length ? rng.weighted(fits, fits.map((l) => options[1][options[0].indexOf(l)]!)) : beats - p;
    // Rests mostly at the end of the first bar (a breath), never at the start of the cell.
    if (p > 0 && rng.chance(restP * (p >= bpb - 1 && p < bpb + 0.01 ? 2 : 1))) {
      p += Math.min(len, 1);
      continue;
    }
    out.push({ on: p, len });
    p += len;
  }
  // The cell ends on a note that lasts at least a beat.
  const last = out[out.length - 1];
  if (last && last.on + last.len < beats) last.len = beats - last.on;
  return out;
}
