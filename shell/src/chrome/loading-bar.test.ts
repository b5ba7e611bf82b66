import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_BAR, createLoadingBar } from './loading-bar.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const phase = (bar: ReturnType<typeof createLoadingBar>) => bar.store.getState().phase;

describe('loading bar', () => {
  it('uses the seed constants', () => {
    expect(LOADING_BAR).toEqual({ throttleMs: 200, durationMs: 2000, heightPx: 3, hideDelayMs: 500, resetDelayMs: 400 });
  });

  it('never shows a load shorter than the 200 ms throttle', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(150);
    bar.finish();
    vi.advanceTimersByTime(2000);
    expect(phase(bar)).toBe('idle');
  });

  it('shows a slow load, then finishes, hides after 500 ms and resets after 400 ms more', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(200);
    expect(phase(bar)).toBe('loading');
    bar.finish();
    expect(phase(bar)).toBe('finishing');
    vi.advanceTimersByTime(499);
    expect(phase(bar)).toBe('finishing');
    vi.advanceTimersByTime(1);
    expect(phase(bar)).toBe('hiding');
    vi.advanceTimersByTime(400);
    expect(phase(bar)).toBe('idle');
  });

  it('waits for every concurrent load', () => {
    const bar = createLoadingBar();
    bar.start();
    bar.start();
    vi.advanceTimersByTime(300);
    bar.finish();
    expect(phase(bar)).toBe('loading');
    bar.finish();
    expect(phase(bar)).toBe('finishing');
  });

  it('turns to the error state on an app error', () => {
    const bar = createLoadingBar();
    bar.start();
    vi.advanceTimersByTime(250);
    bar.error();
    expect(phase(bar)).toBe('error');
    vi.advanceTimersByTime(900);
    expect(phase(bar)).toBe('idle');
  });
});
