/**
 * Scale-out: BullMQ on Redis carries "run this task" to separate worker processes
 * (`npm run worker`). The database stays the record of each task; a job only names it.
 *
 * A worker killed mid-task stops renewing its lock; after `lockDurationMs` another worker's stall
 * check puts the job back and it runs again (the task's attempt count goes up, and past the limit
 * it fails and is refunded). Should a job vanish anyway, the server's sweeper finds the silent
 * task by its heartbeat and queues it again.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { claimTask, failTask } from '../domain/tasks.ts';
import { newWorkerId } from './inProcessRunner.ts';
import { taskEventOf } from './taskEvents.ts';
import { CANCELLED, SHUTDOWN, executeClaimedTask, type ExecutorDeps } from './taskExecutor.ts';

interface TaskJob {
  taskId: string;
}

const connection = (redisUrl: string) => ({ url: redisUrl, maxRetriesPerRequest: null });

/** One job per attempt: ids must differ, or BullMQ would ignore a retry of a finished job. */
const jobId = (taskId: string, attempt: number) => `${taskId}_${attempt}_${Date.now().toString(36)}`;

export class TaskJobQueue {
  private readonly queue: Queue<TaskJob>;

  constructor(redisUrl: string, name: string) {
    this.queue = new Queue<TaskJob>(name, {
      connection: connection(redisUrl),
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: 1000 },
    });
    this.queue.on('error', (err: Error) => console.error('task queue (redis):', err.message));
  }

  async add(taskId: string, attempt: number, delayMs = 0): Promise<void> {
    await this.queue.add('run', { taskId }, { jobId: jobId(taskId, attempt), ...(delayMs > 0 ? { delay: delayMs } : {}) });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export interface TaskWorkerOptions {
  redisUrl: string;
  queueName: string;
  concurrency: number;
  lockDurationMs: number;
}

/** A BullMQ worker that runs tasks with the shared executor. */
export function startTaskWorker(deps: ExecutorDeps, options: TaskWorkerOptions): { worker: Worker<TaskJob>; close(): Promise<void> } {
  const requeue = new TaskJobQueue(options.redisUrl, options.queueName);
  const running = new Map<string, AbortController>();
  const offCancel = deps.events.onCancel((taskId) => running.get(taskId)?.abort(CANCELLED));

  const worker = new Worker<TaskJob>(
    options.queueName,
    async (job: Job<TaskJob>) => {
      const { taskId } = job.data;
      const workerId = newWorkerId('worker');
      const task = await claimTask(deps.db, taskId, workerId);
      if (!task) return 'gone';
      const controller = new AbortController();
      running.set(taskId, controller);
      try {
        const outcome = await executeClaimedTask(deps, task, workerId, controller.signal);
        if (outcome.kind === 'retry') await requeue.add(taskId, outcome.task.attempts + 1, outcome.delayMs);
        return outcome.kind;
      } finally {
        running.delete(taskId);
      }
    },
    {
      connection: connection(options.redisUrl),
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: Math.max(250, Math.floor(options.lockDurationMs / 2)),
      maxStalledCount: Math.max(1, deps.settings.maxAttempts - 1),
    },
  );
  worker.on('error', (err: Error) => console.error('task worker (redis):', err.message));
  // A job BullMQ gives up on (stalled too often): its task must not stay processing.
  worker.on('failed', (job: Job<TaskJob> | undefined, err: Error) => {
    if (!job) return;
    void failTask(deps.db, job.data.taskId, 'TASK_INTERRUPTED', err.message)
      .then((failed) => failed && deps.events.publish(failed.userId, taskEventOf(failed)))
      .catch((e: Error) => console.error(`task ${job.data.taskId}:`, e.message));
  });
  return {
    worker,
    async close() {
      offCancel();
      for (const controller of running.values()) controller.abort(SHUTDOWN);
      await worker.close();
      await requeue.close();
    },
  };
}
