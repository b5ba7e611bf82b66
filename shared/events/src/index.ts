import mitt, { type Emitter } from 'mitt';
import { useEffect, useRef } from 'react';
import type { AtelierEvents } from '@atelier/contract';

export type { AtelierEvents } from '@atelier/contract';
export type AtelierBus = Emitter<AtelierEvents>;

/**
 * The one event bus of the page. This module is a Module Federation singleton, so the shell and
 * every remote import the same instance.
 */
export const bus: AtelierBus = mitt<AtelierEvents>();

/** Subscribes for the lifetime of a component; the latest handler is always the one called. */
export function useBusEvent<K extends keyof AtelierEvents>(type: K, handler: (event: AtelierEvents[K]) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = (e: AtelierEvents[K]) => ref.current(e);
    bus.on(type, listener);
    return () => bus.off(type, listener);
  }, [type]);
}

/** The one toast helper: any remote shows a toast through the shell. */
export function toast(kind: AtelierEvents['toast']['kind'], message: string, duration?: number): void {
  bus.emit('toast', duration === undefined ? { kind, message } : { kind, message, duration });
}

export function notify(event: AtelierEvents['notify']): void {
  bus.emit('notify', event);
}
