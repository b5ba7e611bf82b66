/**
 * The model list: which models exist, of which kind, run by which engine, at what price and
 * within which limits. Built from the built-in engines' own descriptors; adapters to real
 * backends add entries the same way.
 */
import type { GenerationSettings } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { backendModels } from './adapters/index.ts';
import { BUILTIN_CHAT_MODEL, createBuiltinChatEngine } from './chat/builtin/index.ts';
import { createBuiltinImageEngine, proceduralImageModel } from './image/builtin/index.ts';
import { BUILTIN_MUSIC_MODEL, createBuiltinMusicEngine } from './music/builtin/index.ts';
import type { ChatEngine, GenerationKind, ImageEngine, MusicEngine, VideoEngine } from './types.ts';
import { createBuiltinVideoEngine, proceduralVideoModel } from './video/builtin/index.ts';

export type NumberLimit = { min: number; max: number };
export type PriceUnit = 'image' | 'video' | 'track' | 'request';

export interface ModelDescriptor {
  id: string;
  kind: GenerationKind;
  /** `builtin`, or the adapter's name. */
  engine: string;
  displayName: string;
  description: string;
  /** Credits per `priceUnit`; 0 is free. */
  price: number;
  priceUnit: PriceUnit;
  capabilities: readonly string[];
  defaults: Readonly<Record<string, number | string>>;
  limits: Readonly<Record<string, NumberLimit | readonly string[]>>;
  /** How long one attempt may run before the task fails with GENERATION_TIMEOUT. */
  timeoutMs: number;
}

export type ModelEntry =
  | { descriptor: ModelDescriptor & { kind: 'image' }; engine: ImageEngine }
  | { descriptor: ModelDescriptor & { kind: 'video' }; engine: VideoEngine }
  | { descriptor: ModelDescriptor & { kind: 'music' }; engine: MusicEngine }
  | { descriptor: ModelDescriptor & { kind: 'chat' }; engine: ChatEngine };

type EntryOf<K extends GenerationKind> = Extract<ModelEntry, { descriptor: { kind: K } }>;

export class ModelRegistry {
  private readonly byId = new Map<string, ModelEntry>();

  constructor(entries: ModelEntry[]) {
    for (const entry of entries) {
      if (this.byId.has(entry.descriptor.id)) throw new Error(`model ${entry.descriptor.id} is listed twice`);
      this.byId.set(entry.descriptor.id, entry);
    }
  }

  list(kind?: GenerationKind): ModelDescriptor[] {
    return [...this.byId.values()].map((e) => e.descriptor).filter((d) => !kind || d.kind === kind);
  }

  find(id: string): ModelEntry | undefined {
    return this.byId.get(id);
  }

  /** The model of that kind, or UNKNOWN_MODEL: a model of another kind is as unknown as none. */
  require<K extends GenerationKind>(id: string, kind: K): EntryOf<K> {
    const entry = this.byId.get(id);
    if (!entry || entry.descriptor.kind !== kind) throw new DomainError('UNKNOWN_MODEL', 400, `unknown ${kind} model ${id}`);
    return entry as EntryOf<K>;
  }

  /** The first model of a kind: what a request without a model gets where a default makes sense. */
  defaultFor(kind: GenerationKind): ModelDescriptor | undefined {
    return this.list(kind)[0];
  }
}

export interface BuiltinModelOptions {
  /** Model id → credits, overriding the built-in prices. */
  prices?: Record<string, number>;
  /** Overrides every model's time limit. */
  timeoutMs?: number;
  ffmpegPath?: string;
  /** The docs the built-in chat answers from (default `server/content`). */
  contentDir?: string;
}

/** Credits, before an operator's prices: one per picture, ten per video, five per track. */
export const DEFAULT_PRICES: Record<PriceUnit, number> = { image: 1, video: 10, track: 5, request: 0 };
const DEFAULT_TIMEOUT_MS: Record<GenerationKind, number> = { image: 120_000, video: 600_000, music: 300_000, chat: 120_000 };

export function builtinModels(options: BuiltinModelOptions = {}): ModelEntry[] {
  const price = (id: string, unit: PriceUnit) => options.prices?.[id] ?? DEFAULT_PRICES[unit];
  const timeout = (kind: GenerationKind) => options.timeoutMs ?? DEFAULT_TIMEOUT_MS[kind];
  const ffmpeg = options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {};
  const entries: ModelEntry[] = [
    {
      descriptor: { ...proceduralImageModel, kind: 'image', price: price(proceduralImageModel.id, 'image'), priceUnit: 'image', timeoutMs: timeout('image') },
      engine: createBuiltinImageEngine(),
    },
    {
      descriptor: { ...proceduralVideoModel, kind: 'video', price: price(proceduralVideoModel.id, 'video'), priceUnit: 'video', timeoutMs: timeout('video') },
      engine: createBuiltinVideoEngine(ffmpeg),
    },
    {
      descriptor: {
        id: BUILTIN_MUSIC_MODEL.id,
        kind: 'music',
        engine: BUILTIN_MUSIC_MODEL.engine,
        displayName: BUILTIN_MUSIC_MODEL.displayName,
        description: BUILTIN_MUSIC_MODEL.description,
        capabilities: ['text-to-music'],
        defaults: { durationSec: BUILTIN_MUSIC_MODEL.parameters.durationSec.default, format: 'mp3' },
        limits: { durationSec: { min: BUILTIN_MUSIC_MODEL.parameters.durationSec.min, max: BUILTIN_MUSIC_MODEL.parameters.durationSec.max } },
        price: price(BUILTIN_MUSIC_MODEL.id, 'track'),
        priceUnit: 'track',
        timeoutMs: timeout('music'),
      },
      engine: createBuiltinMusicEngine(ffmpeg),
    },
  ];
  const chat = BUILTIN_CHAT_MODEL;
  entries.push({
    descriptor: {
      id: chat.id,
      kind: 'chat',
      engine: chat.engine,
      displayName: chat.displayName,
      description: chat.description,
      capabilities: ['chat', 'streaming', 'citations'],
      defaults: { maxTokens: chat.parameters.maxTokens.default },
      limits: { maxTokens: { min: chat.parameters.maxTokens.min, max: chat.parameters.maxTokens.max } },
      price: price(chat.id, 'request'),
      priceUnit: 'request',
      timeoutMs: timeout('chat'),
    },
    engine: createBuiltinChatEngine(options.contentDir ? { contentDir: options.contentDir } : {}),
  });
  return entries;
}

/**
 * The models a process serves, server and worker alike: the built-in ones, then those of the
 * backends in ATELIER_BACKENDS. An adapter's model is priced by ATELIER_MODEL_PRICES, else its own
 * `price`, else the kind's default; its time limit is ATELIER_TASK_TIMEOUT_SEC, else its own, else the kind's.
 */
export function configuredModels(settings: Pick<GenerationSettings, 'modelPrices' | 'timeoutMs' | 'backends'>, options: Omit<BuiltinModelOptions, 'prices' | 'timeoutMs'> = {}): ModelRegistry {
  const timeoutMs = settings.timeoutMs ?? undefined;
  const builtins = builtinModels({ ...options, prices: settings.modelPrices, ...(timeoutMs ? { timeoutMs } : {}) });
  const adapters = backendModels(settings.backends, {
    price: (id, unit, configured) => settings.modelPrices[id] ?? configured ?? DEFAULT_PRICES[unit],
    timeoutMs: (kind, configured) => timeoutMs ?? configured ?? DEFAULT_TIMEOUT_MS[kind],
  });
  return new ModelRegistry([...builtins, ...adapters]);
}
