import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { act } from 'react';
import { bus, notify, toast, useBusEvent } from './index.ts';

afterEach(() => {
  cleanup();
  bus.all.clear();
});

function Listener({ onToast }: { onToast: (m: string) => void }) {
  useBusEvent('toast', (e) => onToast(e.message));
  return null;
}

describe('event bus', () => {
  it('delivers typed events to every subscriber', () => {
    const a = vi.fn();
    const b = vi.fn();
    bus.on('credits:changed', a);
    bus.on('credits:changed', b);
    bus.emit('credits:changed', { credits: 5, delta: -1, source: 'image' });
    expect(a).toHaveBeenCalledWith({ credits: 5, delta: -1, source: 'image' });
    expect(b).toHaveBeenCalledOnce();
  });

  it('toast and notify go through the bus with the seed defaults left to the shell', () => {
    const seen = vi.fn();
    bus.on('toast', seen);
    bus.on('notify', seen);
    toast('success', 'Copy success');
    toast('error', 'Copy failed', 5000);
    notify({ kind: 'info', title: 'Done' });
    expect(seen.mock.calls.map(([e]) => e)).toEqual([
      { kind: 'success', message: 'Copy success' },
      { kind: 'error', message: 'Copy failed', duration: 5000 },
      { kind: 'info', title: 'Done' },
    ]);
  });

  it('useBusEvent subscribes while mounted and always calls the latest handler', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = render(<Listener onToast={first} />);
    rerender(<Listener onToast={second} />);
    act(() => toast('info', 'hello'));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('hello');
    unmount();
    act(() => toast('info', 'after'));
    expect(second).toHaveBeenCalledOnce();
    expect(bus.all.get('toast') ?? []).toHaveLength(0);
  });
});
