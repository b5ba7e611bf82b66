/**
 * Encoding through the ffmpeg binary: raw RGBA frames in on stdin, H.264 yuv420p MP4 with the
 * index up front (+faststart) out, which every browser plays. The MP4 goes to a temporary file
 * because faststart rewrites the file once the frames are in.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../../types.ts';

function executable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** FFMPEG_PATH when set, else `ffmpeg` on PATH; a clear error when neither is there. */
export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured) {
    if (executable(configured)) return configured;
    throw new EngineError(
      'VIDEO_GENERATE_FAILED',
      `FFMPEG_PATH is set to ${configured}, which is not an executable file. Point it at an ffmpeg binary or unset it to use ffmpeg from PATH.`,
    );
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffmpeg');
    if (executable(candidate)) return candidate;
  }
  throw new EngineError(
    'VIDEO_GENERATE_FAILED',
    'ffmpeg was not found on PATH. The built-in video engine needs it: install it (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH.',
  );
}

export interface EncoderOptions {
  ffmpegPath: string;
  width: number;
  height: number;
  fps: number;
  /** x264 constant rate factor; 20 is visually clean for these pictures. */
  crf?: number;
}

export interface Encoder {
  /** Sends one RGBA frame; resolves when ffmpeg can take more (back-pressure). */
  write(frame: Uint8Array | Uint8ClampedArray): Promise<void>;
  /** Closes the input, waits for ffmpeg, returns the MP4 bytes and removes the temporary file. */
  finish(): Promise<Uint8Array>;
  /** Kills ffmpeg and removes the temporary file. Safe to call more than once. */
  kill(): Promise<void>;
}

export async function startEncoder(opts: EncoderOptions): Promise<Encoder> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-video-'));
  const out = join(dir, 'out.mp4');
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    `${opts.width}x${opts.height}`,
    '-framerate',
    String(opts.fps),
    '-i',
    'pipe:0',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    String(opts.crf ?? 20),
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'high',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-colorspace',
    'bt709',
    '-movflags',
    '+faststart',
    // Same frames → same bytes: no creation time or tool-version strings that could differ.
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-map_metadata',
    '-1',
    '-y',
    out,
  ];
  let child: ChildProcessByStdio<Writable, null, Readable>;
  try {
    child = spawn(opts.ffmpegPath, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new EngineError('VIDEO_GENERATE_FAILED', `ffmpeg could not be started: ${(err as Error).message}`);
  }
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let spawnError: Error | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  // Wait until the process is really there (a missing binary fails here, before any frame is drawn).
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) {
    await rm(dir, { recursive: true, force: true });
    throw new EngineError('VIDEO_GENERATE_FAILED', `ffmpeg could not be started (${opts.ffmpegPath}): ${(spawnError as Error | null)?.message ?? 'unknown error'}`);
  }
  // A dead ffmpeg makes writes fail with EPIPE; the exit code tells the real story.
  child.stdin.on('error', () => {});
  let killed = false;

  const failure = async (): Promise<EngineError> => {
    const code = await exited;
    const reason = spawnError ? spawnError.message : stderr.trim() || `exit code ${String(code)}`;
    return new EngineError('VIDEO_GENERATE_FAILED', `ffmpeg failed: ${reason}`);
  };

  const kill = async (): Promise<void> => {
    if (!killed) {
      killed = true;
      child.stdin.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  return {
    async write(frame) {
      if (killed) throw new EngineError('VIDEO_GENERATE_FAILED', 'the encoder was stopped');
      if (spawnError || child.exitCode !== null) throw await failure();
      const ok = child.stdin.write(frame);
      if (!ok) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            child.stdin.off('drain', done);
            child.off('close', done);
            resolve();
          };
          child.stdin.once('drain', done);
          child.once('close', done);
        });
        if (child.exitCode !== null || spawnError) throw await failure();
      }
    },
    async finish() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) {
        const err = await failure();
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
      try {
        return new Uint8Array(await readFile(out));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    kill,
  };
}
