/**
 * Generation tasks: creation paid for atomically, the state machine, galleries and visibility.
 *
 * submitted → queued → processing → completed | failed, and cancelled by the owner before the end.
 * Every move is one conditional UPDATE, so two actors (a runner finishing, the owner cancelling, a
 * sweeper recovering an orphan) never both win. Whoever moves a task to failed or cancelled
 * refunds it in the same transaction, with the ledger's per-task refund key as a second lock: a
 * task is refunded exactly once.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { ErrorCode } from '@atelier/api';
import type { TaskKind, TaskMode, TaskStatus, Visibility } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import { media, tasks, type MediaRow, type TaskRow } from '../db/schema.ts';
import { announce } from './changes.ts';
import { refundCredits, spendCredits } from './creditsLedger.ts';
import { DomainError, isUniqueViolation, notFound } from './errors.ts';
import { randomToken } from './secrets.ts';
import { enqueueTaskWebhooks } from './webhooks.ts';

export const ACTIVE_STATUSES = ['submitted', 'queued', 'processing'] as const satisfies readonly TaskStatus[];

/** Every write to a task row is announced once committed, for the caches of its status (domain/changes.ts). */
function changed<T extends { id: string } | null | undefined>(db: Database, row: T): T {
  if (row) announce(db, { kind: 'task', id: row.id });
  return row;
}

export interface StoredFile {
  storageKey: string;
  contentType: string;
  byteSize: number;
  width?: number | null;
  height?: number | null;
  durationMs?: number | null;
}

export interface NewTask {
  userId: string;
  kind: TaskKind;
  mode: TaskMode;
  model: string;
  prompt: string;
  params: Record<string, unknown>;
  cost: number;
  visibility?: Visibility;
  source: 'dashboard' | 'api';
  idempotencyKey?: string | null;
  /** The uploaded picture of an image-to-image task, already in storage under `inputKey(id)`. */
  input?: StoredFile;
  /** Lets the caller name the task (the input's storage key contains it). */
  id?: string;
}

/** Where a task's files go: `tasks/<task id>/<media id>.<ext>`. */
export function mediaKey(taskId: string, mediaId: string, extension: string): string {
  return `tasks/${taskId}/${mediaId}.${extension.replace(/[^a-z0-9]/gi, '') || 'bin'}`;
}

async function taskByKey(db: Database, userId: string, key: string): Promise<TaskRow | undefined> {
  const [row] = await db.select().from(tasks).where(and(eq(tasks.userId, userId), eq(tasks.idempotencyKey, key)));
  return row;
}

function sameRequest(prior: TaskRow, t: NewTask): boolean {
  return prior.kind === t.kind && prior.mode === t.mode && prior.model === t.model && prior.prompt === t.prompt;
}

function replay(prior: TaskRow, t: NewTask) {
  if (!sameRequest(prior, t)) throw new DomainError('IDEMPOTENCY_KEY_REUSED', 422, 'idempotency key already used for another task');
  return { task: prior, replayed: true };
}

/**
 * Records the task and spends its cost in one transaction: either both happen or neither. With
 * an idempotency key, a repeat returns the first task and charges nothing.
 */
export async function createTask(db: Database, t: NewTask): Promise<{ task: TaskRow; replayed: boolean }> {
  if (t.idempotencyKey) {
    const prior = await taskByKey(db, t.userId, t.idempotencyKey);
    if (prior) return replay(prior, t);
  }
  try {
    return await db.transaction(async (tx) => {
      const [task] = await tx
        .insert(tasks)
        .values({
          ...(t.id ? { id: t.id } : {}),
          userId: t.userId,
          kind: t.kind,
          mode: t.mode,
          model: t.model,
          prompt: t.prompt,
          params: t.params,
          cost: t.cost,
          visibility: t.visibility ?? 'private',
          source: t.source,
          idempotencyKey: t.idempotencyKey ?? null,
          // Millisecond precision, the same as the cursors built from it.
          createdAt: new Date(),
        })
        .returning();
      if (t.input) await tx.insert(media).values({ taskId: task!.id, userId: t.userId, role: 'input', ...t.input });
      if (t.cost > 0) {
        await spendCredits(tx, t.userId, t.cost, `${t.kind} task`, { taskId: task!.id, idempotencyKey: `spend:task:${task!.id}` });
      }
      return { task: task!, replayed: false };
    });
  } catch (err) {
    if (t.idempotencyKey && isUniqueViolation(err)) {
      const prior = await taskByKey(db, t.userId, t.idempotencyKey);
      if (prior) return replay(prior, t);
    }
    throw err;
  }
}

export async function getTask(db: Database, id: string): Promise<TaskRow | undefined> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id));
  return row;
}

/** The owner's task; someone else's is as missing as one that does not exist. */
export async function getOwnTask(db: Database, userId: string, id: string): Promise<TaskRow> {
  const [row] = await db.select().from(tasks).where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
  if (!row) throw notFound('task');
  return row;
}

export async function getSharedTask(db: Database, token: string): Promise<TaskRow> {
  const [row] = await db.select().from(tasks).where(eq(tasks.shareToken, token));
  if (!row) throw notFound('task');
  return row;
}

/** submitted → queued: handed to the runner. */
export async function markQueued(db: Database, id: string): Promise<TaskRow | undefined> {
  const [row] = await db
    .update(tasks)
    .set({ status: 'queued', updatedAt: new Date() })
    .where(and(eq(tasks.id, id), eq(tasks.status, 'submitted')))
    .returning();
  return changed(db, row);
}

const claimSet = (workerId: string) => ({
  status: 'processing' as const,
  attempts: sql`${tasks.attempts} + 1`,
  workerId,
  heartbeatAt: new Date(),
  startedAt: sql`coalesce(${tasks.startedAt}, now())`,
  progress: 0,
  etaMs: null,
  updatedAt: new Date(),
});

/**
 * Takes one task to run. `processing` is accepted too: a queue re-delivering a job whose worker
 * died hands over the task that worker had claimed (the attempt count says how often).
 */
export async function claimTask(db: Database, id: string, workerId: string): Promise<TaskRow | undefined> {
  const [row] = await db
    .update(tasks)
    .set(claimSet(workerId))
    .where(and(eq(tasks.id, id), inArray(tasks.status, [...ACTIVE_STATUSES])))
    .returning();
  return changed(db, row);
}

/** The oldest queued task that is due, for the database-backed runner; SKIP LOCKED lets nodes share. */
export async function claimNextTask(db: Database, workerId: string): Promise<TaskRow | undefined> {
  const claimed = await db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.status, ['submitted', 'queued']), lte(tasks.runAfter, new Date())))
      .orderBy(asc(tasks.runAfter), asc(tasks.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const [row] = await tx.update(tasks).set(claimSet(workerId)).where(eq(tasks.id, next.id)).returning();
    return row;
  });
  return changed(db, claimed);
}

/** Fenced by the worker id: a runner that lost its task cannot write over its successor. */
const runBy = (id: string, workerId: string) => and(eq(tasks.id, id), eq(tasks.status, 'processing'), eq(tasks.workerId, workerId));

export async function recordProgress(db: Database, id: string, workerId: string, progress: number, etaMs: number | null): Promise<boolean> {
  const rows = await db
    .update(tasks)
    .set({ progress: Math.min(1, Math.max(0, progress)), etaMs: etaMs === null ? null : Math.max(0, Math.round(etaMs)), heartbeatAt: new Date(), updatedAt: new Date() })
    .where(runBy(id, workerId))
    .returning({ id: tasks.id });
  return changed(db, rows[0]) !== undefined;
}

export async function heartbeat(db: Database, ids: string[], workerId: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(tasks)
    .set({ heartbeatAt: new Date() })
    .where(and(inArray(tasks.id, ids), eq(tasks.status, 'processing'), eq(tasks.workerId, workerId)));
}

/** processing → completed with its files; null when the task was cancelled or taken over meanwhile. */
export async function completeTask(db: Database, id: string, workerId: string, outputs: (StoredFile & { id: string })[]): Promise<TaskRow | null> {
  const completed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(tasks)
      .set({ status: 'completed', progress: 1, etaMs: 0, finishedAt: new Date(), heartbeatAt: null, updatedAt: new Date() })
      .where(runBy(id, workerId))
      .returning();
    if (!row) return null;
    if (outputs.length > 0) {
      await tx.insert(media).values(outputs.map((o, position) => ({ ...o, taskId: id, userId: row.userId, role: 'output' as const, position })));
    }
    await enqueueTaskWebhooks(tx, row);
    return row;
  });
  return changed(db, completed);
}

/** Back to the queue after a transient failure, not before `runAfter`. */
export async function retryTaskLater(db: Database, id: string, workerId: string, runAfter: Date): Promise<TaskRow | null> {
  const [row] = await db
    .update(tasks)
    .set({ status: 'queued', runAfter, workerId: null, heartbeatAt: null, progress: 0, etaMs: null, updatedAt: new Date() })
    .where(runBy(id, workerId))
    .returning();
  return changed(db, row ?? null);
}

async function endAndRefund(
  db: Database,
  where: SQL,
  status: 'failed' | 'cancelled',
  code: ErrorCode,
  message: string | null,
): Promise<TaskRow | null> {
  const ended = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(tasks)
      .set({ status, errorCode: code, errorMessage: message?.slice(0, 1000) ?? null, etaMs: null, finishedAt: new Date(), heartbeatAt: null, updatedAt: new Date() })
      .where(and(where, inArray(tasks.status, [...ACTIVE_STATUSES])))
      .returning();
    if (!row) return null;
    if (row.cost > 0) await refundCredits(tx, row.userId, row.cost, `${row.kind} task ${status}`, row.id);
    await enqueueTaskWebhooks(tx, row);
    return row;
  });
  return changed(db, ended);
}

/**
 * → failed with a catalogue code, refunded. With `workerId`, only while that runner holds the task;
 * without, whatever state short of the end it is in (sweepers, lost jobs).
 */
export function failTask(db: Database, id: string, code: ErrorCode, message: string | null, workerId?: string): Promise<TaskRow | null> {
  const where = workerId ? and(eq(tasks.id, id), eq(tasks.workerId, workerId))! : eq(tasks.id, id);
  return endAndRefund(db, where, 'failed', code, message);
}

/** The owner cancels: refunded at once; a runner still working on it is told to stop. */
export async function cancelTask(db: Database, userId: string, id: string): Promise<TaskRow> {
  const row = await endAndRefund(db, and(eq(tasks.id, id), eq(tasks.userId, userId))!, 'cancelled', 'TASK_CANCELLED', null);
  if (row) return row;
  await getOwnTask(db, userId, id);
  throw new DomainError('TASK_ALREADY_FINISHED', 409, 'the task has already finished');
}

/**
 * Deletes the task and its file records (cancelling and refunding it first if it still runs);
 * returns the storage keys for the caller to remove.
 */
export async function deleteTask(db: Database, userId: string, id: string): Promise<{ task: TaskRow; storageKeys: string[]; wasActive: boolean }> {
  const task = await getOwnTask(db, userId, id);
  let wasActive = false;
  if ((ACTIVE_STATUSES as readonly string[]).includes(task.status)) {
    wasActive = (await endAndRefund(db, eq(tasks.id, id), 'cancelled', 'TASK_CANCELLED', null)) !== null;
  }
  const removed = await db.transaction(async (tx) => {
    const files = await tx.select({ key: media.storageKey }).from(media).where(eq(media.taskId, id));
    const deleted = await tx.delete(tasks).where(and(eq(tasks.id, id), eq(tasks.userId, userId))).returning();
    if (deleted.length === 0) throw notFound('task');
    return { task: deleted[0]!, storageKeys: files.map((f) => f.key), wasActive };
  });
  changed(db, removed.task);
  return removed;
}

export async function setTaskVisibility(db: Database, userId: string, id: string, visibility: Visibility): Promise<TaskRow> {
  const [row] = await db
    .update(tasks)
    .set({ visibility, updatedAt: new Date() })
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning();
  if (!row) throw notFound('task');
  return changed(db, row);
}

/** The task's share token, made on first request and kept (the owner can copy the link again). */
export async function shareTask(db: Database, userId: string, id: string): Promise<TaskRow> {
  const [row] = await db
    .update(tasks)
    .set({ shareToken: sql`coalesce(${tasks.shareToken}, ${randomToken(24)})`, updatedAt: new Date() })
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning();
  if (!row) throw notFound('task');
  return changed(db, row);
}

export async function unshareTask(db: Database, userId: string, id: string): Promise<TaskRow> {
  const [row] = await db
    .update(tasks)
    .set({ shareToken: null, updatedAt: new Date() })
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning();
  if (!row) throw notFound('task');
  return changed(db, row);
}

// ---------------------------------------------------------------------------------------------
// Galleries

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  order?: 'desc' | 'asc';
}

export interface TaskPageResult {
  tasks: TaskRow[];
  nextCursor: string | null;
}

export function encodeCursor(task: Pick<TaskRow, 'createdAt' | 'id'>): string {
  return Buffer.from(`${task.createdAt.toISOString()}|${task.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(date.getTime())) {
    throw new DomainError('VALIDATION_FAILED', 400, 'bad cursor', [{ path: 'cursor', message: 'Invalid cursor' }]);
  }
  return { at: date, id };
}

async function page(db: Database, where: SQL, req: PageRequest): Promise<TaskPageResult> {
  const asc_ = req.order === 'asc';
  let filter = where;
  if (req.cursor) {
    const { at, id } = decodeCursor(req.cursor);
    filter = and(where, asc_ ? sql`(${tasks.createdAt}, ${tasks.id}) > (${at.toISOString()}::timestamptz, ${id}::uuid)` : sql`(${tasks.createdAt}, ${tasks.id}) < (${at.toISOString()}::timestamptz, ${id}::uuid)`)!;
  }
  const rows = await db
    .select()
    .from(tasks)
    .where(filter)
    .orderBy(...(asc_ ? [asc(tasks.createdAt), asc(tasks.id)] : [desc(tasks.createdAt), desc(tasks.id)]))
    .limit(req.limit + 1);
  const list = rows.slice(0, req.limit);
  return { tasks: list, nextCursor: rows.length > req.limit ? encodeCursor(list.at(-1)!) : null };
}

/** The owner's tasks of a kind, newest first. */
export function listOwnTasks(db: Database, userId: string, kind: TaskKind, req: PageRequest): Promise<TaskPageResult> {
  return page(db, and(eq(tasks.userId, userId), eq(tasks.kind, kind))!, req);
}

/** Everyone's finished public work, newest first. */
export function listPublicTasks(db: Database, kind: TaskKind | undefined, req: PageRequest): Promise<TaskPageResult> {
  const where = and(eq(tasks.visibility, 'public'), eq(tasks.status, 'completed'), kind ? eq(tasks.kind, kind) : undefined)!;
  return page(db, where, req);
}

/** The cursor of a task the caller names by id (the business API's `after`). */
export async function cursorOf(db: Database, userId: string, id: string): Promise<string> {
  return encodeCursor(await getOwnTask(db, userId, id));
}

/** Output files (and inputs, if asked) of several tasks, in order. */
export async function mediaOf(db: Database, taskIds: string[], role: 'output' | 'input' = 'output'): Promise<Map<string, MediaRow[]>> {
  const out = new Map<string, MediaRow[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return out;
  const rows = await db
    .select()
    .from(media)
    .where(and(inArray(media.taskId, taskIds), eq(media.role, role)))
    .orderBy(asc(media.position));
  for (const row of rows) out.get(row.taskId)?.push(row);
  return out;
}

export async function getMedia(db: Database, id: string): Promise<{ file: MediaRow; task: TaskRow } | undefined> {
  const [row] = await db.select({ file: media, task: tasks }).from(media).innerJoin(tasks, eq(tasks.id, media.taskId)).where(eq(media.id, id));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Recovery

/** Tasks whose runner has gone quiet: processing with a heartbeat older than `staleBefore`. */
export function staleTasks(db: Database, staleBefore: Date): Promise<TaskRow[]> {
  return db
    .select()
    .from(tasks)
    .where(and(eq(tasks.status, 'processing'), or(isNull(tasks.heartbeatAt), lt(tasks.heartbeatAt, staleBefore))))
    .limit(100);
}

/** An orphan goes back to the queue, unless its attempts are used up: then failed and refunded. */
export async function recoverTask(db: Database, task: TaskRow, maxAttempts: number): Promise<TaskRow | null> {
  if (task.attempts >= maxAttempts) return failTask(db, task.id, 'TASK_INTERRUPTED', 'the runner stopped during the task', task.workerId ?? undefined);
  const [row] = await db
    .update(tasks)
    .set({ status: 'queued', workerId: null, heartbeatAt: null, runAfter: new Date(), updatedAt: new Date() })
    .where(and(eq(tasks.id, task.id), eq(tasks.status, 'processing'), task.workerId ? eq(tasks.workerId, task.workerId) : isNull(tasks.workerId)))
    .returning();
  return changed(db, row ?? null);
}

/** Submitted tasks that never reached the queue (the process stopped in between). */
export function unqueuedTasks(db: Database, olderThan: Date): Promise<TaskRow[]> {
  return db.select().from(tasks).where(and(eq(tasks.status, 'submitted'), lt(tasks.createdAt, olderThan))).limit(100);
}

export { randomUUID as newMediaId };
