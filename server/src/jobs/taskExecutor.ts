/**
 * Runs one claimed task: drives its engine with a time limit and a cancel signal, writes progress
 * (throttled), stores the files and records the outcome. Shared by the in-process runner and the
 * BullMQ worker, so both follow the same rules.
 */
import { isErrorCode, type ErrorCode } from '@atelier/api';
import type { GenerationSettings } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { TaskRow } from '../db/schema.ts';
import { completeTask, failTask, mediaKey, mediaOf, newMediaId, recordProgress, retryTaskLater, type StoredFile } from '../domain/tasks.ts';
import type { ModelRegistry } from '../engines/models.ts';
import { EngineError, type GenerationContext, type OutputFile, type VideoStyle } from '../engines/types.ts';
import { readAll, type MediaStorage } from '../storage/index.ts';
import { taskEventOf, type TaskEventBus } from './taskEvents.ts';

export interface ExecutorDeps {
  db: Database;
  models: ModelRegistry;
  storage: MediaStorage;
  events: TaskEventBus;
  settings: GenerationSettings;
}

export type Outcome =
  | { kind: 'completed'; task: TaskRow }
  | { kind: 'failed'; task: TaskRow | null; code: ErrorCode }
  | { kind: 'retry'; task: TaskRow; delayMs: number }
  /** Cancelled or taken over meanwhile: nothing was recorded. */
  | { kind: 'lost' };

/** Why a runner aborts a task itself: the owner cancelled it, or the process is stopping. */
export const CANCELLED = 'cancelled';
export const SHUTDOWN = 'shutdown';

const FAILED_CODE: Record<TaskRow['kind'], ErrorCode> = {
  image: 'IMAGE_GENERATE_FAILED',
  video: 'VIDEO_GENERATE_FAILED',
  music: 'MUSIC_GENERATE_FAILED',
};

function publish(deps: ExecutorDeps, task: TaskRow | null): void {
  if (task) deps.events.publish(task.userId, taskEventOf(task));
}

const num = (v: unknown, fallback = 0) => (typeof v === 'number' ? v : fallback);

async function generate(deps: ExecutorDeps, task: TaskRow, ctx: GenerationContext): Promise<OutputFile[]> {
  const p = task.params;
  const seed = num(p.seed);
  if (task.kind === 'image') {
    const { engine } = deps.models.require(task.model, 'image');
    const base = {
      model: task.model,
      prompt: task.prompt,
      ...(typeof p.negativePrompt === 'string' ? { negativePrompt: p.negativePrompt } : {}),
      width: num(p.width),
      height: num(p.height),
      n: num(p.n, 1),
      seed,
    };
    if (task.mode !== 'image-to-image') return engine.generate(base, ctx);
    const [input] = (await mediaOf(deps.db, [task.id], 'input')).get(task.id) ?? [];
    const image = input ? await readAll(deps.storage, input.storageKey) : null;
    if (!image) throw new EngineError('IMAGE_GENERATE_FAILED', 'the uploaded picture is missing from storage');
    return engine.edit({ ...base, image, strength: num(p.strength, 0.6) }, ctx);
  }
  if (task.kind === 'video') {
    const { engine } = deps.models.require(task.model, 'video');
    const request = { model: task.model, prompt: task.prompt, style: p.style as VideoStyle, durationSec: num(p.durationSec), width: num(p.width), height: num(p.height), fps: num(p.fps), seed };
    return [await engine.generate(request, ctx)];
  }
  const { engine } = deps.models.require(task.model, 'music');
  return [await engine.generate({ model: task.model, prompt: task.prompt, durationSec: num(p.durationSec), seed }, ctx)];
}

async function store(deps: ExecutorDeps, task: TaskRow, files: OutputFile[]): Promise<(StoredFile & { id: string })[]> {
  const stored: (StoredFile & { id: string })[] = [];
  for (const file of files) {
    const id = newMediaId();
    const storageKey = mediaKey(task.id, id, file.extension);
    await deps.storage.put(storageKey, file.data, file.contentType);
    stored.push({ id, storageKey, contentType: file.contentType, byteSize: file.data.byteLength, width: file.width ?? null, height: file.height ?? null, durationMs: file.durationMs ?? null });
  }
  return stored;
}

async function discard(deps: ExecutorDeps, files: StoredFile[]): Promise<void> {
  await Promise.allSettled(files.map((f) => deps.storage.delete(f.storageKey)));
}

/**
 * `task` has just been claimed by `workerId`. `stop` aborts with CANCELLED or SHUTDOWN as reason.
 * Never throws for the task's own failures: they are recorded and returned.
 */
export async function executeClaimedTask(deps: ExecutorDeps, task: TaskRow, workerId: string, stop: AbortSignal): Promise<Outcome> {
  publish(deps, task);
  const { settings } = deps;
  if (task.attempts > settings.maxAttempts) {
    // A queue re-delivered the task more often than allowed (its workers keep dying).
    const failed = await failTask(deps.db, task.id, 'TASK_INTERRUPTED', `gave up after ${task.attempts - 1} attempts`, workerId);
    publish(deps, failed);
    return { kind: 'failed', task: failed, code: 'TASK_INTERRUPTED' };
  }
  const entry = deps.models.find(task.model);
  if (!entry || entry.descriptor.kind !== task.kind) {
    const failed = await failTask(deps.db, task.id, 'UNKNOWN_MODEL', `model ${task.model} is no longer available`, workerId);
    publish(deps, failed);
    return { kind: 'failed', task: failed, code: 'UNKNOWN_MODEL' };
  }
  const timeout = new AbortController();
  const timeoutMs = settings.timeoutMs ?? entry.descriptor.timeoutMs;
  const timer = setTimeout(() => timeout.abort(new DOMException('time limit reached', 'TimeoutError')), timeoutMs);
  // The database says the task is no longer ours (cancelled from another node, or taken over).
  const lost = new AbortController();
  const signal = AbortSignal.any([stop, timeout.signal, lost.signal]);

  let lastWrite = 0;
  let latest = { fraction: 0, etaMs: null as number | null };
  let dirty = false;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = () => {
    dirty = false;
    lastWrite = Date.now();
    const { fraction, etaMs } = latest;
    writing = writing
      .then(() => recordProgress(deps.db, task.id, workerId, fraction, etaMs))
      .then((ok) => {
        if (ok) publish(deps, { ...task, status: 'processing', progress: fraction, etaMs: etaMs === null ? null : Math.round(etaMs) });
        else lost.abort(CANCELLED);
      })
      .catch((err: Error) => console.error(`task ${task.id}: progress not recorded: ${err.message}`));
  };
  const ctx: GenerationContext = {
    signal,
    onProgress(fraction, etaMs) {
      if (!Number.isFinite(fraction)) return;
      latest = { fraction: Math.min(1, Math.max(0, fraction)), etaMs: etaMs === undefined || !Number.isFinite(etaMs) ? null : etaMs };
      dirty = true;
      if (Date.now() - lastWrite >= settings.progressIntervalMs) flush();
    },
  };
  // Throttled reports are written later; the same timer is the heartbeat that says "still alive"
  // while an engine is quiet.
  const beatMs = Math.max(200, Math.min(settings.progressIntervalMs, Math.floor(settings.staleAfterMs / 4)));
  const beat = setInterval(() => {
    if (dirty || Date.now() - lastWrite >= settings.staleAfterMs / 4) flush();
  }, beatMs);

  let stored: (StoredFile & { id: string })[] = [];
  try {
    const files = await generate(deps, task, ctx);
    if (signal.aborted) throw signal.reason;
    stored = await store(deps, task, files);
    clearInterval(beat);
    await writing;
    const done = await completeTask(deps.db, task.id, workerId, stored);
    if (!done) {
      await discard(deps, stored);
      return { kind: 'lost' };
    }
    publish(deps, done);
    return { kind: 'completed', task: done };
  } catch (err) {
    clearInterval(beat);
    await writing;
    await discard(deps, stored);
    if ((stop.aborted && stop.reason === CANCELLED) || lost.signal.aborted) return { kind: 'lost' };
    if (stop.aborted && stop.reason === SHUTDOWN) {
      // Not the task's fault: it goes back to the queue for the next process.
      const again = await retryTaskLater(deps.db, task.id, workerId, new Date());
      return again ? { kind: 'retry', task: again, delayMs: 0 } : { kind: 'lost' };
    }
    if (timeout.signal.aborted) {
      const failed = await failTask(deps.db, task.id, 'GENERATION_TIMEOUT', `no result within ${Math.round(timeoutMs / 1000)} s`, workerId);
      publish(deps, failed);
      return failed ? { kind: 'failed', task: failed, code: 'GENERATION_TIMEOUT' } : { kind: 'lost' };
    }
    const engineError = err instanceof EngineError ? err : null;
    if (engineError?.transient && task.attempts < settings.maxAttempts) {
      const delayMs = settings.retryBaseMs * 2 ** (task.attempts - 1);
      const again = await retryTaskLater(deps.db, task.id, workerId, new Date(Date.now() + delayMs));
      publish(deps, again);
      return again ? { kind: 'retry', task: again, delayMs } : { kind: 'lost' };
    }
    const code: ErrorCode =
      engineError && isErrorCode(engineError.code) ? engineError.code : engineError?.transient ? 'ENGINE_UNAVAILABLE' : FAILED_CODE[task.kind];
    if (!engineError) console.error(`task ${task.id} (${task.model}) failed:`, err);
    const failed = await failTask(deps.db, task.id, code, (err as Error)?.message ?? String(err), workerId);
    publish(deps, failed);
    return failed ? { kind: 'failed', task: failed, code } : { kind: 'lost' };
  } finally {
    clearTimeout(timer);
    clearInterval(beat);
  }
}
