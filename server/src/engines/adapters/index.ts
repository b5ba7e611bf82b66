/**
 * Adapters to real backends: OpenAI-compatible, ComfyUI, AUTOMATIC1111-style and Replicate. Each
 * configured model becomes a model-list entry beside the built-in ones, with the same interfaces,
 * so the task runner, `/api` and `/v1` treat them alike.
 */
import type { ModelEntry, NumberLimit, PriceUnit } from '../models.ts';
import { VIDEO_STYLES, type GenerationKind } from '../types.ts';
import { a1111ImageEngine } from './a1111.ts';
import type { BackendEndpoint } from './backendHttp.ts';
import { comfyEditWorkflow, comfyImageEngine, comfyMusicEngine, comfyVideoEngine } from './comfyui/index.ts';
import { openAIChatEngine, openAIImageEngine, openAIVideoEngine } from './openai.ts';
import { replicateImageEngine, replicateMusicEngine, replicateVideoEngine } from './replicate.ts';
import type { BackendModelSettings, BackendSettings, BackendType } from './settings.ts';

export { loadBackends, type BackendSettings, type BackendModelSettings, type BackendType } from './settings.ts';

/** How models.ts prices and times an adapter's model (operator overrides, then the model's own, then the kind's default). */
export interface AdapterModelRules {
  price(id: string, unit: PriceUnit, configured: number | undefined): number;
  timeoutMs(kind: GenerationKind, configuredMs: number | undefined): number;
}

const UNIT: Record<GenerationKind, PriceUnit> = { image: 'image', video: 'video', music: 'track', chat: 'request' };
const LABEL: Record<BackendType, string> = { openai: 'OpenAI-compatible', comfyui: 'ComfyUI', a1111: 'AUTOMATIC1111', replicate: 'Replicate' };

export function endpointOf(backend: BackendSettings): BackendEndpoint {
  const headers: Record<string, string> = {};
  const key = backend.apiKey;
  if (key) {
    // The web UI's --api-auth is HTTP Basic with `user:password`; the others take a bearer token.
    headers.authorization = backend.type === 'a1111' && key.includes(':') ? `Basic ${Buffer.from(key).toString('base64')}` : `Bearer ${key}`;
  }
  return {
    label: `${backend.type} backend "${backend.id}"`,
    baseUrl: backend.baseUrl,
    headers,
    idleTimeoutMs: backend.requestTimeoutMs,
    pollIntervalMs: backend.pollIntervalMs,
    maxDownloadBytes: backend.maxDownloadBytes,
  };
}

type Shape = { capabilities: string[]; defaults: Record<string, number | string>; limits: Record<string, NumberLimit | readonly string[]> };

/** What a model of this kind on this protocol takes by default; the operator's `defaults` and `limits` go over it. */
function shapeOf(type: BackendType, model: BackendModelSettings): Shape {
  const base = ((): Shape => {
    switch (model.kind) {
      case 'image': {
        const canEdit = type === 'comfyui' ? comfyEditWorkflow(model) !== null : type === 'replicate' ? Boolean(model.editInput) : true;
        // Stable Diffusion 1.5 (the default ComfyUI workflow, most web UIs) is at home at 512.
        const side = type === 'comfyui' || type === 'a1111' ? 512 : 1024;
        return {
          capabilities: ['text-to-image', ...(canEdit ? ['image-to-image'] : [])],
          defaults: { width: side, height: side, n: 1, ...(canEdit ? { strength: 0.6 } : {}) },
          limits: {
            width: { min: 64, max: 2048 },
            height: { min: 64, max: 2048 },
            n: { min: 1, max: 4 },
            ...(canEdit ? { strength: { min: 0, max: 1 } } : {}),
          },
        };
      }
      case 'video': {
        // OpenAI's video models make clips of 4, 8 or 12 seconds.
        const seconds = type === 'openai' ? { default: 4, min: 4, max: 12 } : { default: 5, min: 1, max: 20 };
        return {
          capabilities: ['text-to-video'],
          defaults: { width: 1280, height: 720, fps: 24, durationSec: seconds.default, style: 'cinematic' },
          limits: { width: { min: 128, max: 1920 }, height: { min: 128, max: 1920 }, fps: { min: 8, max: 60 }, durationSec: { min: seconds.min, max: seconds.max }, style: VIDEO_STYLES },
        };
      }
      case 'music':
        return { capabilities: ['text-to-music'], defaults: { durationSec: 30 }, limits: { durationSec: { min: 1, max: 300 } } };
      case 'chat':
        return { capabilities: ['chat', 'streaming'], defaults: { maxTokens: 1024 }, limits: { maxTokens: { min: 1, max: 32768 } } };
    }
  })();
  return { capabilities: base.capabilities, defaults: { ...base.defaults, ...model.defaults }, limits: { ...base.limits, ...model.limits } };
}

export function backendModels(backends: readonly BackendSettings[], rules: AdapterModelRules): ModelEntry[] {
  const entries: ModelEntry[] = [];
  for (const backend of backends) {
    const endpoint = endpointOf(backend);
    for (const model of backend.models) {
      const shape = shapeOf(backend.type, model);
      const remote = model.remoteModel ?? model.deployment ?? model.version ?? model.id;
      const descriptor = {
        id: model.id,
        engine: backend.type,
        displayName: model.displayName ?? remote,
        description: model.description ?? `${remote}, run by the ${LABEL[backend.type]} backend "${backend.id}".`,
        price: rules.price(model.id, UNIT[model.kind], model.price),
        priceUnit: UNIT[model.kind],
        ...shape,
        timeoutMs: rules.timeoutMs(model.kind, model.timeoutSec === undefined ? undefined : model.timeoutSec * 1000),
      };
      entries.push(entryOf(backend.type, endpoint, model, descriptor));
    }
  }
  return entries;
}

function entryOf(type: BackendType, endpoint: BackendEndpoint, model: BackendModelSettings, d: Omit<ModelEntry['descriptor'], 'kind'>): ModelEntry {
  switch (model.kind) {
    case 'image': {
      const engine = type === 'openai' ? openAIImageEngine : type === 'comfyui' ? comfyImageEngine : type === 'a1111' ? a1111ImageEngine : replicateImageEngine;
      return { descriptor: { ...d, kind: 'image' }, engine: engine(endpoint, model) };
    }
    case 'video': {
      const engine = type === 'openai' ? openAIVideoEngine : type === 'comfyui' ? comfyVideoEngine : replicateVideoEngine;
      return { descriptor: { ...d, kind: 'video' }, engine: engine(endpoint, model) };
    }
    case 'music': {
      const engine = type === 'comfyui' ? comfyMusicEngine : replicateMusicEngine;
      return { descriptor: { ...d, kind: 'music' }, engine: engine(endpoint, model) };
    }
    case 'chat':
      return { descriptor: { ...d, kind: 'chat' }, engine: openAIChatEngine(endpoint, model) };
  }
}
