/**
 * Task status changes, for the browsers watching them (server-sent events) and for the runners
 * (a cancel must reach whichever process runs the task). In one process an EventEmitter does it;
 * with REDIS_URL every node and worker publishes to one Redis channel and relays what it hears,
 * including the data changes other nodes' caches must drop (`relayChanges`).
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { isErrorCode } from '@atelier/api';
import type { TaskEvent } from '@atelier/api/schemas';
import type { Database } from '../db/client.ts';
import type { TaskRow } from '../db/schema.ts';
import { announce, onChange, type DataChange } from '../domain/changes.ts';

type Message = { type: 'task'; userId: string; event: TaskEvent } | { type: 'cancel'; taskId: string } | { type: 'change'; change: DataChange };

export interface TaskEventBus {
  publish(userId: string, event: TaskEvent): void;
  /** Every event of one user's tasks; returns the unsubscribe function. */
  subscribe(userId: string, listener: (event: TaskEvent) => void): () => void;
  /** Asks whoever runs the task to stop it (the database already says cancelled). */
  requestCancel(taskId: string): void;
  onCancel(listener: (taskId: string) => void): () => void;
  /** Tells the other processes about a committed data change (nothing to do in one process). */
  shareChange(change: DataChange): void;
  /** Changes heard from other processes, and `reset` when hearing them stops or resumes. */
  onSharedChange(listener: (change: DataChange) => void): () => void;
  close(): Promise<void>;
}

export function taskEventOf(task: TaskRow): TaskEvent {
  return {
    taskId: task.id,
    kind: task.kind,
    status: task.status,
    progress: Math.round(task.progress * 100),
    etaMs: task.etaMs,
    errorCode: task.errorCode && isErrorCode(task.errorCode) ? task.errorCode : null,
    at: new Date().toISOString(),
  };
}

class LocalDispatch {
  readonly emitter = new EventEmitter();
  constructor() {
    // One listener per open event stream: many browsers are normal, not a leak.
    this.emitter.setMaxListeners(0);
  }
  deliver(message: Message): void {
    if (message.type === 'task') this.emitter.emit(`user:${message.userId}`, message.event);
    else if (message.type === 'cancel') this.emitter.emit('cancel', message.taskId);
    else this.emitter.emit('change', message.change);
  }
  subscribe(userId: string, listener: (event: TaskEvent) => void): () => void {
    this.emitter.on(`user:${userId}`, listener);
    return () => this.emitter.off(`user:${userId}`, listener);
  }
  onCancel(listener: (taskId: string) => void): () => void {
    this.emitter.on('cancel', listener);
    return () => this.emitter.off('cancel', listener);
  }
  onChange(listener: (change: DataChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}

export function createLocalEventBus(): TaskEventBus {
  const local = new LocalDispatch();
  return {
    publish: (userId, event) => local.deliver({ type: 'task', userId, event }),
    subscribe: (userId, listener) => local.subscribe(userId, listener),
    requestCancel: (taskId) => local.deliver({ type: 'cancel', taskId }),
    onCancel: (listener) => local.onCancel(listener),
    shareChange: () => {},
    onSharedChange: () => () => {},
    close: async () => {},
  };
}

export const EVENTS_CHANNEL = 'atelier:task-events';

/** Publishes through Redis only; local listeners hear their own node's events back from it. */
export function createRedisEventBus(redisUrl: string): TaskEventBus {
  const local = new LocalDispatch();
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  const sub = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  const logError = (err: Error) => console.error('task events (redis):', err.message);
  pub.on('error', logError);
  sub.on('error', logError);
  // Subscribed on every (re)connection. While the subscription is down, other nodes' changes go
  // unheard: caches empty themselves and serve nothing until it is back.
  const reset = (live: boolean) => local.deliver({ type: 'change', change: { kind: 'reset', live } });
  sub.on('ready', () => void sub.subscribe(EVENTS_CHANNEL).then(() => reset(true), logError));
  sub.on('close', () => reset(false));
  sub.on('message', (_channel: string, raw: string) => {
    try {
      local.deliver(JSON.parse(raw) as Message);
    } catch {
      // Not ours; ignore.
    }
  });
  const send = (message: Message) => void pub.publish(EVENTS_CHANNEL, JSON.stringify(message)).catch(logError);
  return {
    publish: (userId, event) => send({ type: 'task', userId, event }),
    subscribe: (userId, listener) => local.subscribe(userId, listener),
    requestCancel: (taskId) => send({ type: 'cancel', taskId }),
    onCancel: (listener) => local.onCancel(listener),
    shareChange: (change) => send({ type: 'change', change }),
    onSharedChange: (listener) => local.onChange(listener),
    async close() {
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}

/**
 * Links a process's data changes (domain/changes.ts) to the other processes through the bus:
 * what is announced here is shared, what others share is announced here. Returns the unlink.
 */
export function relayChanges(db: Database, bus: TaskEventBus): () => void {
  const offLocal = onChange(db, (change, remote) => {
    if (!remote) bus.shareChange(change);
  });
  const offShared = bus.onSharedChange((change) => announce(db, change, true));
  return () => {
    offLocal();
    offShared();
  };
}
