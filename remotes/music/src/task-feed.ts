import { createStore, useStore } from 'zustand';
import { bus } from '@atelier/events';
import type { AtelierEvents } from '@atelier/contract';

type Submitted = AtelierEvents['task:submitted'];

/**
 * Tasks other remotes submitted since this remote loaded. Subscribed when the module is first
 * evaluated, so events arrive while the video pages are not on screen.
 */
const taskFeed = createStore<{ seen: Submitted[] }>(() => ({ seen: [] }));
bus.on('task:submitted', (event) => {
  if (event.source === 'music') return;
  taskFeed.setState((s) => ({ seen: [...s.seen.slice(-19), event] }));
});

export function useTaskFeed(): Submitted[] {
  return useStore(taskFeed, (s) => s.seen);
}
