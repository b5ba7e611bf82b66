/**
 * npm run bench:engines: median wall time of the built-in engines on this machine, in one table
 * with the targets: a 1024×1024 image, a 5-second 720p video, a 30-second music piece and the
 * first streamed chat token. Each measurement starts with an untimed warm-up (server/src/engines/
 * bench*.ts). `--runs N` overrides every run count.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchChatFirstToken, benchMusic30s } from '../../server/src/engines/bench-audio-chat.ts';
import { benchImage1024, benchVideo5s720p } from '../../server/src/engines/bench.ts';
import { ROOT } from '../lib/paths.ts';
import { log, main, parseArgs } from '../lib/run.ts';

interface Row {
  name: string;
  runs: number;
  targetMs: number;
  measure: (runs: number) => Promise<number>;
}

const ROWS: Row[] = [
  { name: 'image 1024×1024 (built-in)', runs: 7, targetMs: 500, measure: (runs) => benchImage1024(runs) },
  { name: 'video 5 s 1280×720 24 fps (built-in, H.264)', runs: 3, targetMs: 8000, measure: (runs) => benchVideo5s720p(runs) },
  { name: 'music 30 s (built-in, MP3)', runs: 5, targetMs: 3000, measure: (runs) => benchMusic30s(runs) },
  { name: 'chat first streamed token (built-in docs chat)', runs: 20, targetMs: 200, measure: (runs) => benchChatFirstToken(runs) },
];

const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`);

await main(async () => {
  const { flags } = parseArgs(process.argv.slice(2));
  const runsOverride = flags.runs === undefined ? undefined : Number(flags.runs);
  const load = loadavg().map((l) => l.toFixed(2)).join(', ');
  log(`${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ${load}`);
  const results: { name: string; runs: number; medianMs: number; targetMs: number; pass: boolean }[] = [];
  for (const row of ROWS) {
    const runs = runsOverride ?? row.runs;
    log(`${row.name}: ${runs} runs after a warm-up…`);
    const medianMs = await row.measure(runs);
    results.push({ name: row.name, runs, medianMs, targetMs: row.targetMs, pass: medianMs < row.targetMs });
  }
  const lines = [
    `Engines bench: median wall time on this machine (${availableParallelism()} CPUs, load average at start ${load})`,
    '',
    '| benchmark | runs | median | target | result |',
    '| --- | ---: | ---: | ---: | --- |',
    ...results.map((r) => `| ${r.name} | ${r.runs} | ${time(r.medianMs)} | < ${r.targetMs / 1000} s | ${r.pass ? 'pass' : 'FAIL'} |`),
  ];
  console.log(lines.join('\n'));
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench-results', 'engines.json'), JSON.stringify({ load, results }, null, 2));
  log('written to bench-results/engines.json');
});
