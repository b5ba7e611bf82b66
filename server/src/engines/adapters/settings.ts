/**
 * The real backends an operator configures (`ATELIER_BACKENDS` as JSON, or `ATELIER_BACKENDS_FILE`),
 * checked at start so a mistake stops the server with a message rather than failing tasks later.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { GenerationKind } from '../types.ts';
import { checkPlaceholders, placeholdersIn } from './placeholders.ts';

export const BACKEND_TYPES = ['openai', 'comfyui', 'a1111', 'replicate'] as const;
export type BackendType = (typeof BACKEND_TYPES)[number];

/** Which kinds each protocol can serve. */
export const KINDS_OF: Record<BackendType, readonly GenerationKind[]> = {
  openai: ['image', 'video', 'chat'],
  comfyui: ['image', 'video', 'music'],
  a1111: ['image'],
  replicate: ['image', 'video', 'music'],
};

const DEFAULT_BASE_URL: Record<BackendType, string> = {
  openai: 'https://api.openai.com/v1',
  comfyui: 'http://127.0.0.1:8188',
  a1111: 'http://127.0.0.1:7860',
  replicate: 'https://api.replicate.com/v1',
};

const Template = z.record(z.string(), z.unknown());
const Limit = z.union([z.object({ min: z.number(), max: z.number() }), z.array(z.string()).min(1)]);

const ModelSchema = z
  .object({
    /** Our model id, as callers name it; must not clash with a built-in one. */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/, 'letters, digits and . _ : / - (up to 100)'),
    kind: z.enum(['image', 'video', 'music', 'chat']),
    /** The backend's name for it: OpenAI model, A1111 checkpoint, ComfyUI checkpoint, Replicate `owner/name[:version]`. */
    remoteModel: z.string().min(1).optional(),
    price: z.number().int().nonnegative().optional(),
    displayName: z.string().min(1).max(100).optional(),
    description: z.string().max(500).optional(),
    defaults: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
    limits: z.record(z.string(), Limit).optional(),
    timeoutSec: z.number().int().positive().optional(),
    /** ComfyUI: the workflow in API format, inline or a file path. */
    workflow: z.union([z.string(), Template]).optional(),
    /** ComfyUI: the image-to-image workflow (with `{{image}}`), inline or a file path. */
    editWorkflow: z.union([z.string(), Template]).optional(),
    /** Replicate: a version id (POST /v1/predictions). */
    version: z.string().min(1).optional(),
    /** Replicate: `owner/name` of a deployment. */
    deployment: z.string().regex(/^[^/\s]+\/[^/\s]+$/).optional(),
    /** Replicate: the prediction's input; OpenAI and A1111: fields added to each request. Placeholders allowed. */
    input: Template.optional(),
    /** Replicate: the input of an image-to-image prediction; without it the model only makes pictures from text. */
    editInput: Template.optional(),
    /** Replicate: hold the create request open up to this many seconds (`Prefer: wait`). */
    wait: z.number().int().min(1).max(60).optional(),
  })
  .strict();

const BackendSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
    type: z.enum(BACKEND_TYPES),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).optional(),
    /** Name of the environment variable that holds the key, to keep it out of the JSON. */
    apiKeyEnv: z.string().min(1).optional(),
    /** A request that brings no byte for this long means the backend is down (transient, retried). */
    requestTimeoutSec: z.number().positive().max(3600).optional(),
    pollIntervalMs: z.number().int().min(10).max(60_000).optional(),
    maxDownloadMb: z.number().int().positive().max(4096).optional(),
    models: z.array(ModelSchema).min(1),
  })
  .strict();

const FileSchema = z.union([z.array(BackendSchema), z.object({ backends: z.array(BackendSchema) }).strict()]);

export type BackendModelSettings = Omit<z.infer<typeof ModelSchema>, 'workflow' | 'editWorkflow'> & {
  workflow?: Record<string, unknown>;
  editWorkflow?: Record<string, unknown>;
};

export interface BackendSettings {
  id: string;
  type: BackendType;
  baseUrl: string;
  apiKey: string | null;
  requestTimeoutMs: number;
  pollIntervalMs: number;
  maxDownloadBytes: number;
  models: BackendModelSettings[];
}

type Env = Record<string, string | undefined>;

/**
 * ATELIER_BACKENDS (inline JSON) or ATELIER_BACKENDS_FILE: a list of backends, or `{ "backends": [...] }`.
 * Workflow paths are relative to the file (or to the working directory for inline JSON).
 */
export function loadBackends(inline: string | undefined, file: string | undefined, env: Env = process.env): BackendSettings[] {
  if (inline === undefined && file === undefined) return [];
  const what = inline !== undefined ? 'ATELIER_BACKENDS' : `ATELIER_BACKENDS_FILE (${file})`;
  let raw: unknown;
  try {
    raw = JSON.parse(inline ?? readFileSync(file!, 'utf8'));
  } catch (err) {
    throw new Error(`${what} is not readable JSON: ${(err as Error).message}`);
  }
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${what} is invalid:\n${z.prettifyError(parsed.error)}`);
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.backends;
  const baseDir = inline !== undefined ? process.cwd() : dirname(resolve(file!));

  const backendIds = new Set<string>();
  const modelIds = new Set<string>();
  return list.map((b) => {
    const where = `${what}: backend ${b.id}`;
    if (backendIds.has(b.id)) throw new Error(`${where} is listed twice`);
    backendIds.add(b.id);
    if (b.apiKey && b.apiKeyEnv) throw new Error(`${where}: give apiKey or apiKeyEnv, not both`);
    const apiKey = b.apiKey ?? (b.apiKeyEnv ? env[b.apiKeyEnv] || null : null);
    if (b.apiKeyEnv && !apiKey) throw new Error(`${where}: ${b.apiKeyEnv} (apiKeyEnv) is not set`);
    if (b.type === 'replicate' && !apiKey) throw new Error(`${where}: Replicate needs an API token (apiKey or apiKeyEnv)`);
    const models = b.models.map((m) => {
      const at = `${where}, model ${m.id}`;
      if (modelIds.has(m.id)) throw new Error(`${at} is listed twice`);
      modelIds.add(m.id);
      if (!KINDS_OF[b.type].includes(m.kind)) throw new Error(`${at}: ${b.type} backends serve ${KINDS_OF[b.type].join(', ')}, not ${m.kind}`);
      return checkModel(b.type, m, at, baseDir);
    });
    return {
      id: b.id,
      type: b.type,
      baseUrl: (b.baseUrl ?? DEFAULT_BASE_URL[b.type]).replace(/\/+$/, ''),
      apiKey,
      requestTimeoutMs: Math.round((b.requestTimeoutSec ?? 60) * 1000),
      pollIntervalMs: b.pollIntervalMs ?? 1000,
      maxDownloadBytes: (b.maxDownloadMb ?? 512) * 1024 * 1024,
      models,
    };
  });
}

function checkModel(type: BackendType, m: z.infer<typeof ModelSchema>, at: string, baseDir: string): BackendModelSettings {
  const { workflow, editWorkflow, ...rest } = m;
  const out: BackendModelSettings = { ...rest };
  const onlyFor = (field: keyof typeof m, types: BackendType[]) => {
    if (m[field] !== undefined && !types.includes(type)) throw new Error(`${at}: ${field} is for ${types.join(', ')} backends`);
  };
  onlyFor('workflow', ['comfyui']);
  onlyFor('editWorkflow', ['comfyui']);
  onlyFor('version', ['replicate']);
  onlyFor('deployment', ['replicate']);
  onlyFor('editInput', ['replicate']);
  onlyFor('wait', ['replicate']);
  const kind = m.kind;

  if (type === 'comfyui' && kind !== 'chat') {
    if (workflow !== undefined) out.workflow = readWorkflow(workflow, `${at}: workflow`, baseDir);
    if (editWorkflow !== undefined) out.editWorkflow = readWorkflow(editWorkflow, `${at}: editWorkflow`, baseDir);
    if (kind !== 'image' && !out.workflow) throw new Error(`${at}: a ${kind} model on ComfyUI needs its workflow`);
    if (editWorkflow !== undefined && kind !== 'image') throw new Error(`${at}: editWorkflow is for image models`);
    for (const [name, w] of [['workflow', out.workflow], ['editWorkflow', out.editWorkflow]] as const) {
      if (!w) continue;
      checkPlaceholders(w, kind, `${at}: ${name}`);
      if (!placeholdersIn(w).has('prompt')) throw new Error(`${at}: ${name} has no {{prompt}}`);
      if (name === 'workflow' && placeholdersIn(w).has('image')) throw new Error(`${at}: {{image}} belongs in editWorkflow`);
      if (name === 'editWorkflow' && !placeholdersIn(w).has('image')) throw new Error(`${at}: editWorkflow has no {{image}} for the uploaded picture`);
    }
  }
  if (type === 'replicate') {
    if (!m.version && !m.deployment && !m.remoteModel) throw new Error(`${at}: say which Replicate model runs (remoteModel "owner/name", version, or deployment)`);
    if (m.remoteModel && !/^[^/\s:]+\/[^/\s:]+(:[0-9a-f]+)?$/i.test(m.remoteModel)) throw new Error(`${at}: remoteModel must be "owner/name" or "owner/name:version"`);
    if (kind !== 'chat') {
      if (m.input) checkPlaceholders(m.input, kind, `${at}: input`);
      if (m.editInput) {
        if (kind !== 'image') throw new Error(`${at}: editInput is for image models`);
        checkPlaceholders(m.editInput, kind, `${at}: editInput`);
        if (!placeholdersIn(m.editInput).has('image')) throw new Error(`${at}: editInput has no {{image}} for the uploaded picture`);
      }
    }
  }
  if ((type === 'openai' || type === 'a1111') && m.input && kind !== 'chat') checkPlaceholders(m.input, kind, `${at}: input`);
  return out;
}

function readWorkflow(value: string | Record<string, unknown>, where: string, baseDir: string): Record<string, unknown> {
  let workflow: unknown = value;
  if (typeof value === 'string') {
    const path = resolve(baseDir, value);
    try {
      workflow = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`${where}: ${path} is not readable JSON: ${(err as Error).message}`);
    }
  }
  if (!workflow || typeof workflow !== 'object' || Array.isArray(workflow)) throw new Error(`${where} must be a JSON object`);
  const w = workflow as Record<string, unknown>;
  // The editor's own save format has `nodes` and `links`; the API takes the other one.
  if (Array.isArray(w.nodes) && Array.isArray(w.links)) throw new Error(`${where} is in the editor's format: export it with "Export (API)"`);
  const nodes = Object.values(w);
  if (nodes.length === 0 || !nodes.every((n) => n && typeof n === 'object' && typeof (n as Record<string, unknown>).class_type === 'string')) {
    throw new Error(`${where} must be in ComfyUI's API format: { "<node id>": { "class_type": ..., "inputs": {...} } }`);
  }
  return w;
}
