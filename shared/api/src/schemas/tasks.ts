import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';
import { Id, Timestamp } from './common.ts';

/** What a generation task makes. Chat is not a task: it answers in the request. */
export const TaskKind = z.enum(['image', 'video', 'music']).meta({ id: 'TaskKind' });
export type TaskKind = z.infer<typeof TaskKind>;

export const TaskMode = z.enum(['text-to-image', 'image-to-image', 'text-to-video', 'text-to-music']).meta({ id: 'TaskMode' });
export type TaskMode = z.infer<typeof TaskMode>;

/**
 * submitted (recorded and paid) → queued (handed to the runner) → processing → completed | failed;
 * cancelled by the owner at any point before the end. Failed and cancelled tasks are refunded once.
 */
export const TASK_STATUSES = ['submitted', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatus = z.enum(TASK_STATUSES).meta({ id: 'TaskStatus' });
export type TaskStatus = z.infer<typeof TaskStatus>;
export const FINISHED_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export const Visibility = z.enum(['private', 'public']).meta({ id: 'Visibility' });
export type Visibility = z.infer<typeof Visibility>;

/** The seed's five video styles, as lower-case ids (the dashboard shows them translated). */
export const VideoStyle = z.enum(['cinematic', 'animation', 'realistic', 'documentary', 'abstract']).meta({ id: 'VideoStyle' });
export type VideoStyle = z.infer<typeof VideoStyle>;

export const MediaFile = z
  .object({
    id: Id,
    /** Served to whoever may see the task: the owner, anyone when public, or a share-link holder. */
    url: z.string(),
    contentType: z.string(),
    byteSize: z.number().int().nonnegative(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
  })
  .meta({ id: 'MediaFile' });
export type MediaFile = z.infer<typeof MediaFile>;

export const Task = z
  .object({
    id: Id,
    kind: TaskKind,
    mode: TaskMode,
    model: z.string(),
    prompt: z.string(),
    /** What the engine was asked for (size, style, duration, seed, …), defaults filled in. */
    params: z.record(z.string(), z.unknown()),
    /** Credits the task spent when it was created. */
    cost: z.number().int().nonnegative(),
    status: TaskStatus,
    /** 0 to 100. */
    progress: z.number().int().min(0).max(100),
    /** The engine's estimate of the time left while processing, in milliseconds. */
    etaMs: z.number().int().nullable(),
    /** Why a task failed (or TASK_CANCELLED); the dashboard shows its message. */
    errorCode: z.enum(ERROR_CODES).nullable(),
    visibility: Visibility,
    outputs: z.array(MediaFile),
    /** The share link, for the owner, once made. */
    shareUrl: z.string().nullable(),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;

const Model = z.string().min(1).max(200);
const Prompt = z.string().trim().min(1).max(4000);
const Seed = z.number().int().min(0).max(4_294_967_295);

export const ImageTaskBody = z
  .object({
    model: Model,
    prompt: Prompt,
    negativePrompt: z.string().trim().max(2000).optional(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    n: z.number().int().min(1).max(4).optional(),
    seed: Seed.optional(),
    visibility: Visibility.optional(),
  })
  .meta({ id: 'ImageTaskBody' });
export type ImageTaskBody = z.infer<typeof ImageTaskBody>;

/** Image-to-image, sent as multipart/form-data: the fields of ImageTaskBody as text, plus the picture. */
export const ImageEditFields = z.object({
  model: Model,
  prompt: Prompt,
  negativePrompt: z.string().trim().max(2000).optional(),
  width: z.coerce.number().int().positive().optional(),
  height: z.coerce.number().int().positive().optional(),
  n: z.coerce.number().int().min(1).max(4).optional(),
  seed: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  /** 0 keeps the picture, 1 replaces it entirely. */
  strength: z.coerce.number().min(0).max(1).optional(),
  visibility: Visibility.optional(),
});
export type ImageEditFields = z.infer<typeof ImageEditFields>;

export const VideoTaskBody = z
  .object({
    model: Model,
    /** Required; an empty one is refused with VIDEO_PROMPT_REQUIRED. */
    prompt: z.string().trim().max(4000),
    style: VideoStyle.optional(),
    durationSec: z.number().positive().optional(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    fps: z.number().int().positive().optional(),
    seed: Seed.optional(),
    visibility: Visibility.optional(),
  })
  .meta({ id: 'VideoTaskBody' });
export type VideoTaskBody = z.infer<typeof VideoTaskBody>;

export const MusicTaskBody = z
  .object({
    model: Model,
    prompt: Prompt,
    durationSec: z.number().positive().optional(),
    seed: Seed.optional(),
    visibility: Visibility.optional(),
  })
  .meta({ id: 'MusicTaskBody' });
export type MusicTaskBody = z.infer<typeof MusicTaskBody>;

export const TaskListQuery = z.object({
  kind: TaskKind,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** The previous page's `nextCursor`. */
  cursor: z.string().max(200).optional(),
});

export const ExploreQuery = z.object({
  kind: TaskKind.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export const TaskPage = z
  .object({ tasks: z.array(Task), nextCursor: z.string().nullable() })
  .meta({ id: 'TaskPage' });
export type TaskPage = z.infer<typeof TaskPage>;

export const UpdateTaskBody = z.object({ visibility: Visibility }).meta({ id: 'UpdateTaskBody' });
export type UpdateTaskBody = z.infer<typeof UpdateTaskBody>;

export const ShareLink = z
  .object({ token: z.string(), url: z.string() })
  .meta({ id: 'ShareLink' });
export type ShareLink = z.infer<typeof ShareLink>;

/** One `data:` line of `/api/tasks/events`: a task of the signed-in user changed. */
export const TaskEvent = z
  .object({
    taskId: Id,
    kind: TaskKind,
    status: TaskStatus,
    progress: z.number().int().min(0).max(100),
    etaMs: z.number().int().nullable(),
    errorCode: z.enum(ERROR_CODES).nullable(),
    at: Timestamp,
  })
  .meta({ id: 'TaskEvent' });
export type TaskEvent = z.infer<typeof TaskEvent>;

const Limit = z.union([z.object({ min: z.number(), max: z.number() }), z.array(z.string())]);

export const ModelInfo = z
  .object({
    id: z.string(),
    kind: z.enum(['image', 'video', 'music', 'chat']),
    /** `builtin` (offline, procedural) or the adapter that reaches a real backend. */
    engine: z.string(),
    displayName: z.string(),
    description: z.string(),
    /** Credits per `priceUnit`. */
    price: z.number().int().nonnegative(),
    priceUnit: z.enum(['image', 'video', 'track', 'request']),
    capabilities: z.array(z.string()),
    defaults: z.record(z.string(), z.union([z.number(), z.string()])),
    limits: z.record(z.string(), Limit),
  })
  .meta({ id: 'ModelInfo' });
export type ModelInfo = z.infer<typeof ModelInfo>;

export const ModelList = z.object({ models: z.array(ModelInfo) }).meta({ id: 'ModelList' });
export type ModelList = z.infer<typeof ModelList>;
