/**
 * Nothing stays processing forever: tasks whose runner went silent (a killed process, a lost
 * worker) are put back in the queue, or failed and refunded once their attempts are used up; tasks
 * recorded but never queued (the process stopped in between) are queued.
 */
import type { TaskRow } from '../db/schema.ts';
import { recoverTask, staleTasks, unqueuedTasks } from '../domain/tasks.ts';
import { taskEventOf } from './taskEvents.ts';
import type { ExecutorDeps } from './taskExecutor.ts';

export interface SweepResult {
  requeued: TaskRow[];
  failed: TaskRow[];
  unqueued: TaskRow[];
}

/** `allOrphans`: every processing task is an orphan (the embedded database has one owner: us, just started). */
export async function sweepTasks(deps: ExecutorDeps, options: { allOrphans?: boolean } = {}): Promise<SweepResult> {
  const staleBefore = options.allOrphans ? new Date(Date.now() + 60_000) : new Date(Date.now() - deps.settings.staleAfterMs);
  const result: SweepResult = { requeued: [], failed: [], unqueued: [] };
  for (const task of await staleTasks(deps.db, staleBefore)) {
    const after = await recoverTask(deps.db, task, deps.settings.maxAttempts);
    if (!after) continue;
    (after.status === 'queued' ? result.requeued : result.failed).push(after);
    deps.events.publish(after.userId, taskEventOf(after));
  }
  result.unqueued = await unqueuedTasks(deps.db, new Date(Date.now() - 5000));
  return result;
}

export class TaskSweeper {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private readonly deps: ExecutorDeps;
  private readonly onRequeue: (tasks: TaskRow[]) => Promise<void>;

  constructor(deps: ExecutorDeps, onRequeue: (tasks: TaskRow[]) => Promise<void>) {
    this.deps = deps;
    this.onRequeue = onRequeue;
  }

  async start(options: { allOrphans?: boolean } = {}): Promise<SweepResult> {
    const first = await this.sweep(options);
    const every = Math.max(1000, Math.floor(this.deps.settings.staleAfterMs / 2));
    this.timer = setInterval(() => void this.sweep().catch((err: Error) => console.error('task sweeper:', err.message)), every);
    this.timer.unref();
    return first;
  }

  async sweep(options: { allOrphans?: boolean } = {}): Promise<SweepResult> {
    if (this.busy) return { requeued: [], failed: [], unqueued: [] };
    this.busy = true;
    try {
      const result = await sweepTasks(this.deps, options);
      const toQueue = [...result.requeued, ...result.unqueued];
      if (toQueue.length > 0) await this.onRequeue(toQueue);
      return result;
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
