/** What a built-in model says about itself: enough for the model list and for request checks. */
import { EngineError, type GenerationContext, type GenerationKind } from '../types.ts';

export interface NumberLimit {
  min: number;
  max: number;
}

export interface ProceduralModelDescriptor {
  id: string;
  kind: GenerationKind;
  /** Always 'builtin': it runs in the server's process, offline, with no keys. */
  engine: 'builtin';
  displayName: string;
  /** One honest line: what it is and what it is not. */
  description: string;
  capabilities: readonly string[];
  defaults: Readonly<Record<string, number | string>>;
  limits: Readonly<Record<string, NumberLimit | readonly string[]>>;
}

/** An integer within limits, or a VALIDATION_FAILED error naming the field. */
export function checkInt(field: string, value: unknown, limit: NumberLimit): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value) || value < limit.min || value > limit.max) {
    throw new EngineError('VALIDATION_FAILED', `${field} must be an integer from ${limit.min} to ${limit.max} (got ${String(value)})`);
  }
  return value;
}

export function checkNumber(field: string, value: unknown, limit: NumberLimit): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < limit.min || value > limit.max) {
    throw new EngineError('VALIDATION_FAILED', `${field} must be a number from ${limit.min} to ${limit.max} (got ${String(value)})`);
  }
  return value;
}

/** A seed as an unsigned integer the PRNG can take (any finite number is accepted and folded). */
export function normaliseSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new EngineError('VALIDATION_FAILED', 'seed must be a finite number');
  return Math.abs(Math.trunc(seed));
}

/** Throws the abort reason when the task was cancelled (an AbortError unless the caller gave one). */
export function throwIfAborted(ctx: GenerationContext): void {
  if (ctx.signal.aborted) throw abortReason(ctx.signal);
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The generation was cancelled', 'AbortError');
}

/** Lets pending I/O (cancellation, progress events) through between CPU-bound steps. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
