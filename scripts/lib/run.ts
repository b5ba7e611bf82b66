import { spawn, type SpawnOptions } from 'node:child_process';
import { ROOT } from './paths.ts';

/**
 * Runs a command; rejects with its exit code. With `quiet`, its output is kept back and shown
 * only if it fails (builds are chatty and their success says nothing).
 */
export function run(cmd: string, args: string[], options: SpawnOptions & { quiet?: boolean } = {}): Promise<void> {
  const { quiet, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', cwd: ROOT, ...spawnOptions });
    const output: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => output.push(b));
    child.stderr?.on('data', (b: Buffer) => output.push(b));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      if (quiet) process.stderr.write(Buffer.concat(output));
      reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

export function log(message: string): void {
  process.stderr.write(`\x1b[2m[atelier]\x1b[0m ${message}\n`);
}

/** Parses `--flag value` and `--flag` (boolean) after the positional arguments. */
export function parseArgs(argv: string[]): { positional: string[]; flags: Record<string, string | true> } {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[i + 1];
      if (inline !== undefined) flags[k] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        flags[k] = next;
        i++;
      } else flags[k] = true;
    } else positional.push(a);
  }
  return { positional, flags };
}

export async function main(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    log(`\x1b[31merror:\x1b[0m ${(err as Error).message}`);
    process.exit(1);
  }
}
