/**
 * What a task asks its engine for: the request's fields checked against the model's limits, with
 * the model's defaults filled in, and what that costs. Checked before anything is spent, so a bad
 * request is refused with VALIDATION_FAILED and never charged.
 */
import type { Visibility } from '@atelier/api/schemas';
import type { ModelDescriptor, NumberLimit } from '../engines/models.ts';
import { DomainError } from './errors.ts';

type Issue = { path: string; message: string };

function limitOf(d: ModelDescriptor, name: string): NumberLimit | undefined {
  const l = d.limits[name];
  return l && !Array.isArray(l) ? (l as NumberLimit) : undefined;
}

function choicesOf(d: ModelDescriptor, name: string): readonly string[] | undefined {
  const l = d.limits[name];
  return Array.isArray(l) ? l : undefined;
}

class ParamReader {
  readonly issues: Issue[] = [];
  private readonly d: ModelDescriptor;
  constructor(d: ModelDescriptor) {
    this.d = d;
  }

  number(name: string, value: number | undefined, opts: { integer?: boolean; even?: boolean } = {}): number {
    const fallback = this.d.defaults[name];
    const v = value ?? (typeof fallback === 'number' ? fallback : undefined);
    const limit = limitOf(this.d, name);
    if (v === undefined || !Number.isFinite(v)) {
      this.issues.push({ path: name, message: 'Required' });
      return 0;
    }
    if (opts.integer && !Number.isInteger(v)) this.issues.push({ path: name, message: 'Must be a whole number' });
    if (limit && (v < limit.min || v > limit.max)) this.issues.push({ path: name, message: `Must be from ${limit.min} to ${limit.max}` });
    if (opts.even && v % 2 !== 0) this.issues.push({ path: name, message: 'Must be even' });
    return v;
  }

  choice(name: string, value: string | undefined): string {
    const fallback = this.d.defaults[name];
    const v = value ?? (typeof fallback === 'string' ? fallback : undefined);
    const choices = choicesOf(this.d, name);
    if (v === undefined) {
      this.issues.push({ path: name, message: 'Required' });
      return '';
    }
    if (choices && !choices.includes(v)) this.issues.push({ path: name, message: `Must be one of ${choices.join(', ')}` });
    return v;
  }

  done(): void {
    if (this.issues.length > 0) throw new DomainError('VALIDATION_FAILED', 400, this.issues.map((i) => `${i.path}: ${i.message}`).join('; '), this.issues);
  }
}

/** A seed the caller did not give: random, and recorded, so the result can be made again. */
const randomSeed = () => Math.floor(Math.random() * 4_294_967_295);

export interface ImageInput {
  negativePrompt?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  n?: number | undefined;
  seed?: number | undefined;
  strength?: number | undefined;
}

export function imageParams(d: ModelDescriptor, input: ImageInput, edit: boolean): Record<string, unknown> {
  const r = new ParamReader(d);
  // An edit keeps the picture's own size unless one is asked for.
  const width = edit && input.width === undefined ? undefined : r.number('width', input.width, { integer: true });
  const height = edit && input.height === undefined ? undefined : r.number('height', input.height, { integer: true });
  const n = r.number('n', input.n, { integer: true });
  const strength = edit ? r.number('strength', input.strength) : undefined;
  r.done();
  return {
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
    n,
    seed: input.seed ?? randomSeed(),
    ...(input.negativePrompt ? { negativePrompt: input.negativePrompt } : {}),
    ...(strength !== undefined ? { strength } : {}),
  };
}

export interface VideoInput {
  style?: string | undefined;
  durationSec?: number | undefined;
  width?: number | undefined;
  height?: number | undefined;
  fps?: number | undefined;
  seed?: number | undefined;
}

export function videoParams(d: ModelDescriptor, input: VideoInput): Record<string, unknown> {
  const r = new ParamReader(d);
  const style = r.choice('style', input.style);
  const durationSec = r.number('durationSec', input.durationSec);
  const width = r.number('width', input.width, { integer: true, even: true });
  const height = r.number('height', input.height, { integer: true, even: true });
  const fps = r.number('fps', input.fps, { integer: true });
  r.done();
  return { style, durationSec, width, height, fps, seed: input.seed ?? randomSeed() };
}

export function musicParams(d: ModelDescriptor, input: { durationSec?: number | undefined; seed?: number | undefined }): Record<string, unknown> {
  const r = new ParamReader(d);
  const durationSec = r.number('durationSec', input.durationSec);
  r.done();
  return { durationSec, seed: input.seed ?? randomSeed() };
}

/** The model's price times what the task makes (pictures for images; one video or track). */
export function taskCost(d: ModelDescriptor, params: Record<string, unknown>): number {
  if (d.priceUnit === 'image') return d.price * (typeof params.n === 'number' ? params.n : 1);
  return d.price;
}

export type { Visibility };
