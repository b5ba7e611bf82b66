/**
 * MP3 encoding through ffmpeg (libmp3lame): raw Float32 PCM goes in on stdin, the MP3 comes out
 * on stdout. The process is started before the render so its start-up overlaps with synthesis
 * and a missing ffmpeg is reported before any work is wasted.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../../types.ts';

/** `FFMPEG_PATH` when set, else `ffmpeg` from the PATH. */
export function resolveFfmpegPath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.FFMPEG_PATH?.trim();
  return configured ? configured : 'ffmpeg';
}

export interface Mp3EncodeOptions {
  ffmpegPath?: string;
  sampleRate: number;
  channels: number;
  bitrateKbps?: number;
  /** ID3 tags. */
  metadata?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Mp3Encoder {
  /** Sends the PCM and resolves with the MP3 once ffmpeg has finished. */
  encode(pcm: Float32Array): Promise<Uint8Array>;
  /** Stops ffmpeg without encoding (after a failed or aborted render). */
  kill(): void;
  /** Resolves when ffmpeg has started, rejects with an EngineError when it cannot. */
  ready: Promise<void>;
}

const MISSING = (path: string) =>
  new EngineError(
    'SYSTEM_ERROR',
    `ffmpeg is required to encode music but was not found at "${path}". Install it (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH to its location.`,
    false,
  );

/** Starts ffmpeg, waiting for PCM on stdin. */
export function startMp3Encoder(options: Mp3EncodeOptions): Mp3Encoder {
  const path = options.ffmpegPath ?? resolveFfmpegPath();
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'f32le', '-ar', String(options.sampleRate), '-ac', String(options.channels), '-i', 'pipe:0'];
  for (const [k, v] of Object.entries(options.metadata ?? {})) args.push('-metadata', `${k}=${v.replace(/[\r\n]+/g, ' ')}`);
  args.push('-fflags', '+bitexact', '-c:a', 'libmp3lame', '-b:a', `${options.bitrateKbps ?? 192}k`, '-f', 'mp3', 'pipe:1');

  let child: ChildProcessByStdio<Writable, Readable, Readable>;
  const chunks: Buffer[] = [];
  let stderr = '';
  let spawnError: Error | null = null;
  const exited = new Promise<number | null>((resolve) => {
    try {
      child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      spawnError = err as Error;
      resolve(null);
      return;
    }
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString('utf8');
    });
    // A closed pipe surfaces as the exit code below; without a listener it would crash the process.
    child.stdin.on('error', () => {});
    child.on('error', (err) => {
      spawnError = err;
      resolve(null);
    });
    child.on('close', (code) => resolve(code));
  });
  const ready = new Promise<void>((resolve, reject) => {
    if (spawnError) {
      reject(toEngineError(spawnError, path));
      return;
    }
    child.once('spawn', () => resolve());
    child.once('error', (err) => reject(toEngineError(err, path)));
  });
  // Callers that never await `ready` must not see an unhandled rejection; `encode` reports it.
  ready.catch(() => {});

  const onAbort = () => kill();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  function kill() {
    try {
      child?.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }

  return {
    ready,
    kill,
    async encode(pcm) {
      try {
        await ready;
        options.signal?.throwIfAborted();
        child.stdin.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
        const code = await exited;
        options.signal?.throwIfAborted();
        if (spawnError) throw toEngineError(spawnError, path);
        if (code !== 0) throw new EngineError('SYSTEM_ERROR', `ffmpeg failed to encode MP3 (exit ${code}): ${stderr.trim().slice(0, 500)}`, false);
        const out = Buffer.concat(chunks);
        if (out.length === 0) throw new EngineError('SYSTEM_ERROR', 'ffmpeg produced no MP3 data', false);
        return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

function toEngineError(err: Error, path: string): EngineError {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EACCES') return MISSING(path);
  return new EngineError('SYSTEM_ERROR', `could not start ffmpeg (${path}): ${err.message}`, true);
}
