/**
 * The embedded default's runner: the database is the queue. It claims due tasks (FOR UPDATE SKIP
 * LOCKED, so several nodes on one PostgreSQL share the work safely), runs up to `concurrency` at
 * once, and is woken when a task is submitted; a slow poll picks up retries and other nodes' work.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { claimNextTask } from '../domain/tasks.ts';
import { CANCELLED, SHUTDOWN, executeClaimedTask, type ExecutorDeps } from './taskExecutor.ts';

export function newWorkerId(label: string): string {
  return `${label}:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export class InProcessRunner {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  private readonly runnerId = newWorkerId('runner');
  private poll: NodeJS.Timeout | null = null;
  private stopped = true;
  private claiming = false;
  private again = false;
  private offCancel: (() => void) | null = null;
  private readonly deps: ExecutorDeps;
  private readonly options: { concurrency: number; pollMs: number };

  constructor(deps: ExecutorDeps, options: { concurrency: number; pollMs?: number }) {
    this.deps = deps;
    this.options = { concurrency: options.concurrency, pollMs: options.pollMs ?? 1000 };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.offCancel = this.deps.events.onCancel((taskId) => this.running.get(taskId)?.controller.abort(CANCELLED));
    this.poll = setInterval(() => this.wake(), this.options.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Look for work now (a task was just queued, or one just finished). */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.fill()
      .catch((err: Error) => console.error('task runner:', err.message))
      .finally(() => {
        this.claiming = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.concurrency) {
      const workerId = `${this.runnerId}:${randomBytes(3).toString('hex')}`;
      const task = await claimNextTask(this.deps.db, workerId);
      if (!task) return;
      const controller = new AbortController();
      const done = executeClaimedTask(this.deps, task, workerId, controller.signal)
        .then((outcome) => {
          // A retry is due before the next poll, often: look again when it is.
          if (outcome.kind === 'retry' && outcome.delayMs > 0) setTimeout(() => this.wake(), outcome.delayMs + 5).unref();
        })
        .catch((err: Error) => console.error(`task ${task.id}:`, err))
        .finally(() => {
          this.running.delete(task.id);
          this.wake();
        });
      this.running.set(task.id, { controller, done });
    }
  }

  get activeCount(): number {
    return this.running.size;
  }

  /** Stops taking work; tasks still running go back to the queue for the next start. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    this.offCancel?.();
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort(SHUTDOWN);
    await Promise.allSettled(all.map((r) => r.done));
    while (this.claiming) await new Promise((r) => setTimeout(r, 10));
  }
}
