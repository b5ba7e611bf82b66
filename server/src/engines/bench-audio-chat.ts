/**
 * Benchmarks for the built-in music and chat engines: a 30-second music piece (compose, render,
 * encode to MP3) and the time to the first streamed chat delta. Each runs one untimed warm-up,
 * then N timed runs, and returns the median in ms (like bench.ts); the bench table is assembled
 * elsewhere. Both accept the run count as a number or an options object.
 *
 * Run on its own: `node server/src/engines/bench-audio-chat.ts [runs]`.
 */
import { fileURLToPath } from 'node:url';
import { createBuiltinChatEngine } from './chat/builtin/index.ts';
import { BUILTIN_MUSIC_MODEL, createBuiltinMusicEngine } from './music/builtin/index.ts';

export interface AudioChatBenchOptions {
  /** Timed runs (default 5 for music, 20 for chat), after one untimed warm-up. */
  runs?: number;
  /** Called with each run's time, for callers that print progress. */
  onRun?: (ms: number, run: number) => void;
}

export interface ChatBenchOptions extends AudioChatBenchOptions {
  contentDir?: string;
  /**
   * `false` (default): one engine, its index built by an untimed first question, then timed
   * questions (the steady state of a running server). `true`: a new engine for every run, so each
   * timed question also reads the docs and builds the index.
   */
  cold?: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const m = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(m * 10) / 10;
}

const optionsOf = <T extends AudioChatBenchOptions>(arg: number | T | undefined): T => (typeof arg === 'number' ? ({ runs: arg } as T) : (arg ?? ({} as T)));

const MUSIC_PROMPTS = ['calm piano', 'energetic electronic', 'epic orchestral', 'lofi hip hop with rain', 'late night jazz', 'ambient space'];

/** Median ms to generate a 30-second MP3 (prompts vary between runs, as users' do). */
export async function benchMusic30s(runsOrOptions?: number | AudioChatBenchOptions): Promise<number> {
  const options = optionsOf(runsOrOptions);
  const runs = Math.max(1, options.runs ?? 5);
  const engine = createBuiltinMusicEngine();
  const ctx = { signal: new AbortController().signal, onProgress: () => {} };
  const once = (i: number) =>
    engine.generate({ model: BUILTIN_MUSIC_MODEL.id, prompt: MUSIC_PROMPTS[i % MUSIC_PROMPTS.length]!, seed: 1000 + i, durationSec: 30 }, ctx);
  await once(MUSIC_PROMPTS.length - 1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once(i);
    const ms = performance.now() - started;
    times.push(ms);
    options.onRun?.(ms, i);
  }
  return median(times);
}

const CHAT_QUESTIONS: [string, string][] = [
  ['How do I create an API key?', 'en'],
  ['How do webhooks work?', 'en'],
  ['API キーはどうやって作成しますか？', 'ja'],
  ['Wie funktionieren Credits?', 'de'],
  ['What is the capital of France?', 'en'],
];

/** Median ms from calling `complete` to the first `delta` chunk. */
export async function benchChatFirstToken(runsOrOptions?: number | ChatBenchOptions): Promise<number> {
  const options = optionsOf(runsOrOptions);
  const runs = Math.max(1, options.runs ?? 20);
  const ctx = { signal: new AbortController().signal, onProgress: () => {} };
  const contentDir = options.contentDir;
  // No background pre-warming: the cold runs must build the index themselves.
  const make = () => createBuiltinChatEngine({ ...(contentDir ? { contentDir } : {}), prewarm: false });
  let engine = make();
  const firstDelta = async (question: string, language: string) => {
    const started = performance.now();
    let ms = Number.NaN;
    for await (const chunk of engine.complete({ model: 'atelier-docs-chat-1', messages: [{ role: 'user', content: question }], language }, ctx)) {
      if (chunk.type === 'delta' && Number.isNaN(ms)) ms = performance.now() - started;
    }
    return ms;
  };
  // Warm-up (JIT, and in warm mode the indexes of the languages asked in).
  for (const [q, l] of CHAT_QUESTIONS) await firstDelta(q, l);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (options.cold) engine = make();
    const [q, l] = CHAT_QUESTIONS[i % CHAT_QUESTIONS.length]!;
    const ms = await firstDelta(q, l);
    times.push(ms);
    options.onRun?.(ms, i);
  }
  return median(times);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Number(process.argv[2]) || undefined;
  const music = await benchMusic30s(runs);
  const cold = await benchChatFirstToken({ cold: true, ...(runs ? { runs } : {}) });
  const warm = await benchChatFirstToken(runs);
  console.log(`music 30 s piece (median): ${music.toFixed(0)} ms (target < 3000)`);
  console.log(`chat first delta, cold index (median): ${cold.toFixed(1)} ms (target < 200)`);
  console.log(`chat first delta, warm (median): ${warm.toFixed(1)} ms (target < 200)`);
}
