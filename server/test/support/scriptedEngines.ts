/**
 * Test doubles of our own engine interface whose behaviour the prompt scripts, for the timing
 * and failures real engines do not produce on demand:
 *   `fail`            a permanent EngineError
 *   `flaky:N`         a transient EngineError on the first N attempts of that prompt
 *   `down`            a transient EngineError every time
 *   `slow:MS`         reports progress for MS milliseconds, then succeeds
 *   `hang`            runs until aborted
 *   anything else     succeeds at once
 * Every call is recorded, with whether its signal was aborted.
 */
import { ModelRegistry, type ModelDescriptor, type ModelEntry } from '../../src/engines/models.ts';
import { EngineError, type ChatEngine, type GenerationContext, type ImageEngine, type MusicEngine, type OutputFile, type VideoEngine } from '../../src/engines/types.ts';

export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface Call {
  prompt: string;
  aborted: boolean;
}

export class Script {
  readonly calls: Call[] = [];
  private readonly attempts = new Map<string, number>();

  async run(prompt: string, ctx: GenerationContext): Promise<void> {
    const call = { prompt, aborted: false };
    this.calls.push(call);
    ctx.signal.addEventListener('abort', () => (call.aborted = true), { once: true });
    const attempt = (this.attempts.get(prompt) ?? 0) + 1;
    this.attempts.set(prompt, attempt);
    if (/\bfail\b/.test(prompt)) throw new EngineError('VALIDATION_FAILED', 'the backend refused the prompt');
    if (/\bdown\b/.test(prompt)) throw new EngineError('ENGINE_UNAVAILABLE', 'backend is down', true);
    const flaky = /\bflaky:(\d+)/.exec(prompt);
    if (flaky && attempt <= Number(flaky[1])) throw new EngineError('ENGINE_UNAVAILABLE', `flaky attempt ${attempt}`, true);
    const slow = /\bslow:(\d+)/.exec(prompt);
    const hang = /\bhang\b/.test(prompt);
    if (slow || hang) {
      const total = slow ? Number(slow[1]) : Number.POSITIVE_INFINITY;
      const started = Date.now();
      while (Date.now() - started < total) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new DOMException('aborted', 'AbortError');
        const done = Math.min(1, (Date.now() - started) / total);
        ctx.onProgress(done, Number.isFinite(total) ? total - (Date.now() - started) : undefined);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    ctx.onProgress(1, 0);
  }
}

export function scriptedImageEngine(script: Script): ImageEngine {
  const files = (n: number): OutputFile[] =>
    Array.from({ length: n }, () => ({ data: new Uint8Array(PNG_1X1), contentType: 'image/png', extension: 'png', width: 1, height: 1 }));
  return {
    kind: 'image',
    async generate(req, ctx) {
      await script.run(req.prompt, ctx);
      return files(req.n);
    },
    async edit(req, ctx) {
      await script.run(req.prompt, ctx);
      return files(req.n);
    },
  };
}

/** 64 KiB of counting bytes: enough to test byte ranges. */
export const FAKE_MEDIA = new Uint8Array(65536).map((_, i) => i % 251);

export function scriptedVideoEngine(script: Script): VideoEngine {
  return {
    kind: 'video',
    async generate(req, ctx) {
      await script.run(req.prompt, ctx);
      return { data: FAKE_MEDIA, contentType: 'video/mp4', extension: 'mp4', width: req.width, height: req.height, durationMs: req.durationSec * 1000 };
    },
  };
}

export function scriptedMusicEngine(script: Script): MusicEngine {
  return {
    kind: 'music',
    async generate(req, ctx) {
      await script.run(req.prompt, ctx);
      return { data: FAKE_MEDIA, contentType: 'audio/mpeg', extension: 'mp3', durationMs: req.durationSec * 1000 };
    },
  };
}

/** Answers with the last user message reversed word by word, streamed a word at a time. */
export function echoChatEngine(): ChatEngine {
  return {
    kind: 'chat',
    async *complete(req) {
      const last = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const words = last.split(/\s+/).filter(Boolean).reverse();
      for (const [i, w] of words.entries()) yield { type: 'delta', text: i === 0 ? w : ` ${w}` };
      yield { type: 'citations', citations: [{ url: '/docs/api', title: 'API guide' }] };
      yield { type: 'done', finishReason: 'stop', usage: { promptTokens: last.split(/\s+/).length, completionTokens: words.length } };
    },
  };
}

const base = { engine: 'scripted', description: 'test double', timeoutMs: 30_000 };

export const SCRIPTED_IMAGE: ModelDescriptor = {
  ...base,
  id: 'scripted-image',
  kind: 'image',
  displayName: 'Scripted image',
  price: 1,
  priceUnit: 'image',
  capabilities: ['text-to-image', 'image-to-image'],
  defaults: { width: 64, height: 64, n: 1, strength: 0.5 },
  limits: { width: { min: 1, max: 2048 }, height: { min: 1, max: 2048 }, n: { min: 1, max: 4 }, strength: { min: 0, max: 1 } },
};
export const SCRIPTED_VIDEO: ModelDescriptor = {
  ...base,
  id: 'scripted-video',
  kind: 'video',
  displayName: 'Scripted video',
  price: 10,
  priceUnit: 'video',
  capabilities: ['text-to-video'],
  defaults: { width: 640, height: 360, fps: 24, durationSec: 4, style: 'cinematic' },
  limits: { width: { min: 64, max: 1920 }, height: { min: 64, max: 1920 }, fps: { min: 1, max: 60 }, durationSec: { min: 1, max: 20 }, style: ['cinematic', 'animation', 'realistic', 'documentary', 'abstract'] },
};
export const SCRIPTED_MUSIC: ModelDescriptor = {
  ...base,
  id: 'scripted-music',
  kind: 'music',
  displayName: 'Scripted music',
  price: 5,
  priceUnit: 'track',
  capabilities: ['text-to-music'],
  defaults: { durationSec: 10 },
  limits: { durationSec: { min: 1, max: 120 } },
};
export const ECHO_CHAT: ModelDescriptor = {
  ...base,
  id: 'echo-chat',
  kind: 'chat',
  displayName: 'Echo chat',
  price: 0,
  priceUnit: 'request',
  capabilities: ['chat'],
  defaults: {},
  limits: {},
};

/** The scripted models (and, with `extra`, real ones) in one registry. */
export function scriptedModels(script: Script, extra: ModelEntry[] = [], overrides: { timeoutMs?: number } = {}): ModelRegistry {
  const t = overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {};
  return new ModelRegistry([
    { descriptor: { ...SCRIPTED_IMAGE, ...t, kind: 'image' }, engine: scriptedImageEngine(script) },
    { descriptor: { ...SCRIPTED_VIDEO, ...t, kind: 'video' }, engine: scriptedVideoEngine(script) },
    { descriptor: { ...SCRIPTED_MUSIC, ...t, kind: 'music' }, engine: scriptedMusicEngine(script) },
    { descriptor: { ...ECHO_CHAT, kind: 'chat' }, engine: echoChatEngine() },
    ...extra,
  ]);
}
