/**
 * One interface per kind of generation. The built-in offline engines and the adapters to real
 * backends (OpenAI-compatible, ComfyUI, AUTOMATIC1111-style, Replicate) all implement these, so
 * the task runner never knows which one it drives.
 */

export type GenerationKind = 'image' | 'video' | 'music' | 'chat';

/** What an engine may report while it works; the runner forwards it to the task's watchers. */
export interface GenerationContext {
  signal: AbortSignal;
  /** `fraction` in [0, 1]; `etaMs` is the engine's own estimate of the time left. */
  onProgress(fraction: number, etaMs?: number): void;
}

export interface OutputFile {
  data: Uint8Array;
  contentType: string;
  /** Without the dot: png, mp4, mp3. */
  extension: string;
  width?: number;
  height?: number;
  durationMs?: number;
}

export interface ImageRequest {
  model: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  /** Same seed and inputs → same pixels. */
  seed: number;
  /** How many images, 1 to 4. */
  n: number;
}

export interface ImageEditRequest extends ImageRequest {
  /** The uploaded picture (PNG, JPEG or WebP bytes). */
  image: Uint8Array;
  /** 0 keeps the picture, 1 replaces it entirely. */
  strength: number;
}

export interface ImageEngine {
  readonly kind: 'image';
  generate(request: ImageRequest, ctx: GenerationContext): Promise<OutputFile[]>;
  edit(request: ImageEditRequest, ctx: GenerationContext): Promise<OutputFile[]>;
}

/** The seed's five video styles. */
export const VIDEO_STYLES = ['cinematic', 'animation', 'realistic', 'documentary', 'abstract'] as const;
export type VideoStyle = (typeof VIDEO_STYLES)[number];

export interface VideoRequest {
  model: string;
  prompt: string;
  style: VideoStyle;
  durationSec: number;
  width: number;
  height: number;
  fps: number;
  seed: number;
}

export interface VideoEngine {
  readonly kind: 'video';
  /** An MP4 (H.264, yuv420p, faststart) that browsers play. */
  generate(request: VideoRequest, ctx: GenerationContext): Promise<OutputFile>;
}

export interface MusicRequest {
  model: string;
  prompt: string;
  durationSec: number;
  seed: number;
}

export interface MusicEngine {
  readonly kind: 'music';
  /** An MP3. */
  generate(request: MusicRequest, ctx: GenerationContext): Promise<OutputFile>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Citation {
  /** e.g. `/docs/api#webhooks` */
  url: string;
  title: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Language of the answer where the engine can choose (the built-in one answers from docs in it). */
  language?: string;
  maxTokens?: number;
  temperature?: number;
  seed?: number;
}

export type ChatChunk =
  | { type: 'delta'; text: string }
  | { type: 'citations'; citations: Citation[] }
  | { type: 'done'; finishReason: 'stop' | 'length'; usage: { promptTokens: number; completionTokens: number } };

export interface ChatEngine {
  readonly kind: 'chat';
  /** Streams the answer; the first delta should come fast (the bench target is 0.2 s). */
  complete(request: ChatRequest, ctx: GenerationContext): AsyncIterable<ChatChunk>;
}

/** A backend failure, with a catalogue code (see shared/api/src/errors.ts) and whether a retry may help. */
export class EngineError extends Error {
  override name = 'EngineError';
  readonly code: string;
  readonly transient: boolean;
  constructor(code: string, message: string, transient = false) {
    super(message);
    this.code = code;
    this.transient = transient;
  }
}
