/**
 * Timings of the built-in media engines for the engines benchmark (the table is assembled by the
 * bench task). Each function runs one untimed warm-up, then `runs` timed generations with
 * different seeds, and returns the median wall time in milliseconds.
 */
import { createBuiltinImageEngine } from './image/builtin/index.ts';
import { createBuiltinVideoEngine } from './video/builtin/index.ts';
import type { GenerationContext } from './types.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function quietContext(): GenerationContext {
  return { signal: new AbortController().signal, onProgress: () => {} };
}

async function medianOf(runs: number, once: (seed: number) => Promise<unknown>): Promise<number> {
  await once(0);
  const times: number[] = [];
  for (let i = 1; i <= Math.max(1, runs); i++) {
    const started = performance.now();
    await once(i);
    times.push(performance.now() - started);
  }
  return Math.round(median(times) * 10) / 10;
}

/** A 1024×1024 text-to-image PNG (target: under 500 ms). */
export async function benchImage1024(runs = 7): Promise<number> {
  const engine = createBuiltinImageEngine();
  return medianOf(runs, (seed) =>
    engine.generate(
      { model: engine.model.id, prompt: 'sunset over snowy mountains by a lake, dramatic', width: 1024, height: 1024, seed, n: 1 },
      quietContext(),
    ),
  );
}

/** A 5-second 1280×720 24 fps cinematic MP4 (target: under 8 s). */
export async function benchVideo5s720p(runs = 3): Promise<number> {
  const engine = createBuiltinVideoEngine();
  return medianOf(runs, (seed) =>
    engine.generate(
      {
        model: engine.model.id,
        prompt: 'sunset over snowy mountains by a lake',
        style: 'cinematic',
        durationSec: 5,
        width: 1280,
        height: 720,
        fps: 24,
        seed,
      },
      quietContext(),
    ),
  );
}
