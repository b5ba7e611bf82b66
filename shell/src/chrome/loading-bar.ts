import { createStore, useStore } from 'zustand';

/** The seed's loading-bar constants. */
export const LOADING_BAR = {
  throttleMs: 200,
  durationMs: 2000,
  heightPx: 3,
  hideDelayMs: 500,
  resetDelayMs: 400,
} as const;

export type LoadingPhase = 'idle' | 'loading' | 'finishing' | 'error' | 'hiding';

interface LoadingBarState {
  phase: LoadingPhase;
  /** How many loads are in flight (route changes, remotes, page data). */
  pending: number;
}

/**
 * The top loading bar as a small state machine. A load shorter than the throttle never shows;
 * a finished load stays full for the hide delay, fades, and resets after the reset delay.
 */
export function createLoadingBar(
  timers: { set: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>; clear: (id: ReturnType<typeof setTimeout>) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (id) => clearTimeout(id),
  },
) {
  const store = createStore<LoadingBarState>(() => ({ phase: 'idle', pending: 0 }));
  let showTimer: ReturnType<typeof setTimeout> | null = null;
  let hideTimer: ReturnType<typeof setTimeout> | null = null;
  const clear = () => {
    if (showTimer) timers.clear(showTimer);
    if (hideTimer) timers.clear(hideTimer);
    showTimer = hideTimer = null;
  };
  const settle = (phase: 'finishing' | 'error') => {
    clear();
    if (store.getState().phase === 'idle') return; // never shown: nothing to hide
    store.setState({ phase });
    hideTimer = timers.set(() => {
      store.setState({ phase: 'hiding' });
      hideTimer = timers.set(() => store.setState({ phase: 'idle' }), LOADING_BAR.resetDelayMs);
    }, LOADING_BAR.hideDelayMs);
  };
  return {
    store,
    start() {
      const { pending, phase } = store.getState();
      store.setState({ pending: pending + 1 });
      if (pending > 0) return;
      clear();
      if (phase === 'loading') return;
      if (phase !== 'idle') {
        store.setState({ phase: 'loading' });
        return;
      }
      showTimer = timers.set(() => store.setState({ phase: 'loading' }), LOADING_BAR.throttleMs);
    },
    finish() {
      const pending = Math.max(0, store.getState().pending - 1);
      store.setState({ pending });
      // An error already shown stays shown until it hides.
      if (pending === 0 && store.getState().phase !== 'error') settle('finishing');
    },
    /** An app error: the bar turns to its error state and then hides. */
    error() {
      store.setState({ pending: 0 });
      if (store.getState().phase === 'idle') store.setState({ phase: 'loading' });
      settle('error');
    },
  };
}

export type LoadingBar = ReturnType<typeof createLoadingBar>;

/** The page's loading bar. */
export const loadingBar = createLoadingBar();

export function useLoadingPhase(bar: LoadingBar = loadingBar): LoadingPhase {
  return useStore(bar.store, (s) => s.phase);
}
