import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
// By package name, not './client.ts': this subpath is its own federated module, and only the
// root module's client is the one the shell configured.
import { api } from '@atelier/api';
import type { Task, TaskKind, TaskStatus } from './schemas/tasks.ts';

const FINISHED: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** How often a running task is checked while "check automatically" is on. */
export const TASK_CHECK_INTERVAL_MS = 2000;
/** After this long without finishing, automatic checks stop: "Query status timeout, please try again". */
export const TASK_CHECK_TIMEOUT_MS = 10 * 60_000;

export const taskKey = (id: string) => ['task', id] as const;

export function isFinished(task: Pick<Task, 'status'> | undefined): boolean {
  return task !== undefined && FINISHED.includes(task.status);
}

/**
 * One task's status, checked every 2 s while `autoCheck` is on and the task runs. Checking stops
 * by itself after the timeout (`timedOut`); `checkNow` asks once and restarts the clock.
 */
export function useTask(id: string, { autoCheck, timeoutMs = TASK_CHECK_TIMEOUT_MS }: { autoCheck: boolean; timeoutMs?: number }) {
  const started = useRef(Date.now());
  const [timedOut, setTimedOut] = useState(false);
  const query = useQuery({
    queryKey: taskKey(id),
    queryFn: () => api<Task>(`/api/tasks/${id}`),
    refetchInterval: (q) => (autoCheck && !timedOut && !isFinished(q.state.data) ? TASK_CHECK_INTERVAL_MS : false),
  });
  const finished = isFinished(query.data);
  useEffect(() => {
    if (finished || !autoCheck || timedOut) return;
    const left = timeoutMs - (Date.now() - started.current);
    const timer = setTimeout(() => setTimedOut(true), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [finished, autoCheck, timedOut, timeoutMs]);
  const checkNow = async () => {
    started.current = Date.now();
    setTimedOut(false);
    await query.refetch();
  };
  return { task: query.data, isPending: query.isPending, error: query.error, timedOut: timedOut && !finished, checkNow };
}

/** A page of the signed-in user's tasks of one kind, newest first. */
export function useMyTasks(kind: TaskKind, cursor: string | null) {
  return useQuery({
    queryKey: ['tasks', kind, cursor],
    queryFn: () => api<{ tasks: Task[]; nextCursor: string | null }>(`/api/tasks?kind=${kind}&limit=12${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  });
}

/** The first model of a kind the server offers (the built-in unless an admin configured others). */
export function useDefaultModel(kind: TaskKind) {
  return useQuery({
    queryKey: ['models'],
    queryFn: async () => (await api<{ models: { id: string; kind: string }[] }>('/api/models')).models,
    staleTime: 5 * 60_000,
    select: (models) => models.find((m) => m.kind === kind)?.id ?? null,
  });
}
