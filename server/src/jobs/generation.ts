/**
 * What the routes use for generation: submit (check, pay, record, queue), cancel, delete, wait for
 * the end; and the background work of this process (runner or queue, sweeper, webhooks).
 */
import { FINISHED_TASK_STATUSES as FINISHED, type TaskKind, type TaskMode, type Visibility } from '@atelier/api/schemas';
import type { GenerationSettings } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { TaskRow } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { purgeExpiredIdempotencyKeys } from '../domain/idempotentRequests.ts';
import { cancelTask, createTask, deleteTask, getOwnTask, markQueued, mediaKey, newMediaId, type StoredFile } from '../domain/tasks.ts';
import { imageParams, musicParams, taskCost, videoParams, type ImageInput, type VideoInput } from '../domain/tasksParams.ts';
import type { ModelRegistry } from '../engines/models.ts';
import type { MediaStorage } from '../storage/index.ts';
import { TaskJobQueue, startTaskWorker } from './bullQueue.ts';
import { InProcessRunner } from './inProcessRunner.ts';
import { createLocalEventBus, createRedisEventBus, relayChanges, taskEventOf, type TaskEventBus } from './taskEvents.ts';
import type { ExecutorDeps } from './taskExecutor.ts';
import { TaskSweeper } from './taskSweeper.ts';
import { WebhookDispatcher } from './webhookDispatcher.ts';

export interface Upload {
  data: Uint8Array;
  contentType: string;
  extension: string;
  width?: number;
  height?: number;
}

export type SubmitRequest = {
  userId: string;
  source: 'dashboard' | 'api';
  idempotencyKey?: string | null | undefined;
  model: string;
  prompt: string;
  visibility?: Visibility | undefined;
} & (
  | { kind: 'image'; input: ImageInput; image?: Upload }
  | { kind: 'video'; input: VideoInput }
  | { kind: 'music'; input: { durationSec?: number | undefined; seed?: number | undefined } }
);

export interface GenerationOptions {
  db: Database;
  models: ModelRegistry;
  storage: MediaStorage;
  settings: GenerationSettings;
  /** The embedded database has one owner: on start every processing task is an orphan of a dead process. */
  embedded: boolean;
}

export class Generation {
  readonly db: Database;
  readonly models: ModelRegistry;
  readonly storage: MediaStorage;
  readonly settings: GenerationSettings;
  private eventBus: TaskEventBus | null = null;
  readonly webhooks: WebhookDispatcher;
  private readonly embedded: boolean;
  private readonly deps: ExecutorDeps;
  private runner: InProcessRunner | null = null;
  private queue: TaskJobQueue | null = null;
  private sweeper: TaskSweeper | null = null;
  private worker: { close(): Promise<void> } | null = null;
  private started = false;
  private readonly closers: (() => Promise<void>)[] = [];
  private housekeeping: NodeJS.Timeout | null = null;
  private unrelay: (() => void) | null = null;

  constructor(options: GenerationOptions) {
    this.db = options.db;
    this.models = options.models;
    this.storage = options.storage;
    this.settings = options.settings;
    this.embedded = options.embedded;
    // Getters, so Redis is reached only by a process that uses it (not the operator command line).
    const self = this;
    this.deps = {
      db: this.db,
      models: this.models,
      storage: this.storage,
      get events() {
        return self.events;
      },
      settings: this.settings,
    };
    this.webhooks = new WebhookDispatcher(this.db, this.settings.webhooks);
    if (!this.settings.redisUrl) this.runner = new InProcessRunner(this.deps, { concurrency: this.settings.concurrency });
  }

  /** Task status changes: in this process, or across nodes through Redis. */
  get events(): TaskEventBus {
    this.eventBus ??= this.settings.redisUrl ? createRedisEventBus(this.settings.redisUrl) : createLocalEventBus();
    return this.eventBus;
  }

  private jobQueue(): TaskJobQueue | null {
    if (!this.settings.redisUrl) return null;
    this.queue ??= new TaskJobQueue(this.settings.redisUrl, this.settings.queueName);
    return this.queue;
  }

  /** Checks the request against the model, pays, records and queues; a repeated key replays. */
  async submit(req: SubmitRequest): Promise<{ task: TaskRow; replayed: boolean }> {
    const entry = this.models.require(req.model, req.kind);
    const d = entry.descriptor;
    let mode: TaskMode;
    let params: Record<string, unknown>;
    if (req.kind === 'image') {
      mode = req.image ? 'image-to-image' : 'text-to-image';
      if (req.image && !d.capabilities.includes('image-to-image')) throw new DomainError('VALIDATION_FAILED', 400, `${d.id} cannot edit pictures`, [{ path: 'image', message: 'This model does not take a picture' }]);
      params = imageParams(d, req.input, Boolean(req.image));
    } else if (req.kind === 'video') {
      if (!req.prompt.trim()) throw new DomainError('VIDEO_PROMPT_REQUIRED', 400);
      mode = 'text-to-video';
      params = videoParams(d, req.input);
    } else {
      mode = 'text-to-music';
      params = musicParams(d, req.input);
    }
    const cost = taskCost(d, params);
    const id = crypto.randomUUID();
    let input: StoredFile | undefined;
    if (req.kind === 'image' && req.image) {
      input = {
        storageKey: mediaKey(id, newMediaId(), req.image.extension),
        contentType: req.image.contentType,
        byteSize: req.image.data.byteLength,
        width: req.image.width ?? null,
        height: req.image.height ?? null,
      };
      await this.storage.put(input.storageKey, req.image.data, input.contentType);
    }
    let created: { task: TaskRow; replayed: boolean };
    try {
      created = await createTask(this.db, {
        id,
        userId: req.userId,
        kind: req.kind as TaskKind,
        mode,
        model: d.id,
        prompt: req.prompt,
        params,
        cost,
        visibility: req.visibility ?? 'private',
        source: req.source,
        idempotencyKey: req.idempotencyKey ?? null,
        ...(input ? { input } : {}),
      });
    } catch (err) {
      if (input) await this.storage.delete(input.storageKey).catch(() => undefined);
      throw err;
    }
    if (created.replayed && input) await this.storage.delete(input.storageKey).catch(() => undefined);
    if (!created.replayed || created.task.status === 'submitted') created.task = await this.enqueue(created.task);
    return created;
  }

  /** submitted → queued, and the runner or the job queue is told. */
  private async enqueue(task: TaskRow): Promise<TaskRow> {
    const marked = await markQueued(this.db, task.id);
    // Null: a runner already claimed the task and announced newer states; a stale
    // "submitted" sent now would arrive after "processing".
    if (marked) this.events.publish(marked.userId, taskEventOf(marked));
    const queued = marked ?? task;
    const queue = this.jobQueue();
    if (queue) await queue.add(queued.id, queued.attempts + 1);
    else this.runner?.wake();
    return queued;
  }

  async cancel(userId: string, id: string): Promise<TaskRow> {
    const task = await cancelTask(this.db, userId, id);
    this.events.requestCancel(id);
    this.events.publish(userId, taskEventOf(task));
    return task;
  }

  async remove(userId: string, id: string): Promise<TaskRow> {
    const { task, storageKeys, wasActive } = await deleteTask(this.db, userId, id);
    if (wasActive) this.events.requestCancel(id);
    await Promise.allSettled(storageKeys.map((key) => this.storage.delete(key)));
    return task;
  }

  /** Resolves when the task ends, or with its current state after `timeoutMs`. */
  async waitForEnd(userId: string, id: string, timeoutMs: number): Promise<TaskRow> {
    const deadline = Date.now() + timeoutMs;
    let wake: () => void = () => {};
    const off = this.events.subscribe(userId, (e) => {
      if (e.taskId === id && FINISHED.includes(e.status)) wake();
    });
    try {
      for (;;) {
        const task = await getOwnTask(this.db, userId, id);
        if (FINISHED.includes(task.status) || Date.now() >= deadline) return task;
        // Events make it quick; the poll covers a missed one.
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(1000, Math.max(0, deadline - Date.now()))).unref();
        });
      }
    } finally {
      off();
    }
  }

  /**
   * Background work: the runner (or, with Redis, optionally a worker), the sweeper that rescues
   * silent tasks, and webhook delivery.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // With Redis, the other nodes' caches hear of this one's changes, and this one's of theirs.
    if (this.settings.redisUrl) this.unrelay = relayChanges(this.db, this.events);
    this.sweeper = new TaskSweeper(this.deps, async (tasks) => {
      for (const task of tasks) {
        const queue = this.jobQueue();
        if (queue) {
          const queued = (await markQueued(this.db, task.id)) ?? task;
          await queue.add(queued.id, queued.attempts + 1);
        }
      }
      this.runner?.wake();
    });
    await this.sweeper.start({ allOrphans: this.embedded });
    this.runner?.start();
    if (this.settings.redisUrl && this.settings.workerInServer) {
      this.worker = startTaskWorker(this.deps, {
        redisUrl: this.settings.redisUrl,
        queueName: this.settings.queueName,
        concurrency: this.settings.concurrency,
        lockDurationMs: this.settings.lockDurationMs,
      });
    }
    this.webhooks.start();
    // Idempotency keys are kept a day; their rows go once expired.
    this.housekeeping = setInterval(() => void purgeExpiredIdempotencyKeys(this.db).catch(() => undefined), 3_600_000);
    this.housekeeping.unref();
  }

  /** Something else to close with the rest (the business API's rate-limit store). */
  onStop(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** Stops background work; what was running goes back to the queue. Safe to call twice. */
  async stop(): Promise<void> {
    this.sweeper?.stop();
    if (this.housekeeping) clearInterval(this.housekeeping);
    await this.runner?.stop();
    await this.worker?.close();
    this.worker = null;
    await this.webhooks.stop();
    await this.queue?.close();
    this.queue = null;
    this.unrelay?.();
    this.unrelay = null;
    await this.eventBus?.close();
    this.eventBus = null;
    await Promise.allSettled(this.closers.splice(0).map((close) => close()));
    this.started = false;
  }
}
