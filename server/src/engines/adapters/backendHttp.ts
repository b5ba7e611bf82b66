/**
 * The one HTTP client every adapter talks to its backend with. It turns what can go wrong on the
 * wire into EngineErrors the task runner understands:
 *   - unreachable, silent past the time limit, 408/429/5xx  → transient ENGINE_UNAVAILABLE (retried)
 *   - 401/403                                               → SYSTEM_ERROR (the operator's key is refused)
 *   - other 4xx, a body that is not what the protocol says  → the kind's failure code, not retried
 * The caller's signal (cancel, task time limit) always wins: its reason is rethrown untouched.
 */
import type { ErrorCode } from '@atelier/api';
import { EngineError } from '../types.ts';
import { decodeDataUrl } from './media.ts';

export interface BackendEndpoint {
  /** Names the backend in messages, e.g. `comfyui backend "studio"`; never the key. */
  label: string;
  /** Without a trailing slash. */
  baseUrl: string;
  /** Authorization and the like, sent to the backend's own origin only. */
  headers: Record<string, string>;
  /** A request that brings no byte for this long counts as a backend that is down. */
  idleTimeoutMs: number;
  /** Pause between status polls. */
  pollIntervalMs: number;
  /** Cap on one downloaded file. */
  maxDownloadBytes: number;
}

export interface SendOptions {
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Overrides the endpoint's idle limit; null waits as long as the caller's signal allows. */
  idleTimeoutMs?: number | null;
  /** Overrides the endpoint's download cap. */
  maxBytes?: number;
}

export interface BackendAnswer {
  status: number;
  contentType: string;
  body: Uint8Array;
}

const MESSAGE_LIMIT = 300;

export class BackendHttp {
  readonly endpoint: BackendEndpoint;
  /** What a refused or malformed answer fails the task with. */
  readonly failureCode: ErrorCode;

  constructor(endpoint: BackendEndpoint, failureCode: ErrorCode) {
    this.endpoint = endpoint;
    this.failureCode = failureCode;
  }

  url(path: string): string {
    return /^[a-z]+:\/\//i.test(path) ? path : `${this.endpoint.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /** A non-transient failure with this adapter's code. */
  bad(message: string, code: ErrorCode = this.failureCode): EngineError {
    return new EngineError(code, `${this.endpoint.label}: ${message}`, false);
  }

  down(message: string): EngineError {
    return new EngineError('ENGINE_UNAVAILABLE', `${this.endpoint.label}: ${message}`, true);
  }

  /** The whole answer of a request that succeeded (2xx); anything else is thrown as above. */
  async send(path: string, signal: AbortSignal, options: SendOptions = {}): Promise<BackendAnswer> {
    const res = await this.open(path, signal, options);
    try {
      const body = await this.readAll(res.response, res.watch, options.maxBytes ?? this.endpoint.maxDownloadBytes);
      return { status: res.response.status, contentType: res.response.headers.get('content-type') ?? '', body };
    } finally {
      res.watch.stop();
    }
  }

  /** A 2xx answer parsed as JSON; a body that is not JSON is the backend's fault. */
  async json(path: string, signal: AbortSignal, options: SendOptions = {}): Promise<unknown> {
    const answer = await this.send(path, signal, { ...options, maxBytes: options.maxBytes ?? 64 * 1024 * 1024 });
    return this.parse(answer.body);
  }

  parse(body: Uint8Array): unknown {
    const text = new TextDecoder().decode(body);
    try {
      return JSON.parse(text);
    } catch {
      throw this.bad(`answered with something that is not JSON (${preview(text)})`);
    }
  }

  /**
   * The response of a 2xx request, its body not read yet, for streams. `watch` keeps the idle
   * limit running while the caller reads; call `watch.touch()` per chunk and `watch.stop()` at the end.
   */
  async open(path: string, signal: AbortSignal, options: SendOptions = {}): Promise<{ response: Response; watch: IdleWatch }> {
    throwIfAborted(signal);
    const url = this.url(path);
    const idleMs = options.idleTimeoutMs === undefined ? this.endpoint.idleTimeoutMs : options.idleTimeoutMs;
    const watch = new IdleWatch(idleMs, signal);
    const sameOrigin = new URL(url).origin === new URL(this.endpoint.baseUrl).origin;
    const headers: Record<string, string> = { ...(sameOrigin ? this.endpoint.headers : {}), ...options.headers };
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.form) body = options.form;
    let response: Response;
    try {
      response = await fetch(url, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body, signal: watch.signal, redirect: 'follow' });
    } catch (err) {
      watch.stop();
      throw this.wireError(err, signal, watch);
    }
    watch.touch();
    if (response.ok) return { response, watch };
    let text = '';
    try {
      text = new TextDecoder().decode(await this.readAll(response, watch, 256 * 1024));
    } catch {
      if (signal.aborted) throw signal.reason;
    } finally {
      watch.stop();
    }
    throw this.statusError(response.status, text);
  }

  /** Reads a body to the end under the idle limit and a size cap. */
  async readAll(response: Response, watch: IdleWatch, maxBytes: number): Promise<Uint8Array> {
    if (!response.body) return new Uint8Array();
    const reader = response.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        watch.touch();
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw this.bad(`sent more than ${maxBytes} bytes`);
        }
        parts.push(value);
      }
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw this.wireError(err, watch.callerSignal, watch);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }

  /** What a failed fetch or body read means: cancelled by us, silent too long, or unreachable. */
  wireError(err: unknown, callerSignal: AbortSignal, watch: IdleWatch): unknown {
    if (callerSignal.aborted) return callerSignal.reason;
    if (watch.expired) return this.down(`no answer within ${Math.round(watch.ms! / 1000)} s`);
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    return this.down(`unreachable (${cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err)})`);
  }

  statusError(status: number, body: string): EngineError {
    const detail = upstreamMessage(body);
    const message = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
    if (status === 408 || status === 429 || status >= 500) return this.down(message);
    if (status === 401 || status === 403) return this.bad(`refused our credentials (${message})`, 'SYSTEM_ERROR');
    return this.bad(`refused the request (${message})`);
  }

  /** An output file by URL: `data:` URLs carry it, others are fetched (with our key only on the backend's own origin). */
  async download(url: string, signal: AbortSignal): Promise<{ body: Uint8Array; contentType: string }> {
    const inline = decodeDataUrl(url);
    if (inline) return { body: inline.data, contentType: inline.contentType };
    if (!/^https?:\/\//i.test(url)) throw this.bad(`gave an output address that is not http(s): ${preview(url)}`);
    const answer = await this.send(url, signal);
    return { body: answer.body, contentType: answer.contentType };
  }

  /** Waits between polls; the caller's signal ends the wait at once, as does `wake`. */
  pause(signal: AbortSignal, wake?: Promise<unknown>, ms = this.endpoint.pollIntervalMs): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', onAbort, { once: true });
      void wake?.then(done, done);
    });
  }
}

/** Aborts a request that has been silent for `ms`; `touch` says bytes arrived. */
export class IdleWatch {
  readonly ms: number | null;
  readonly callerSignal: AbortSignal;
  readonly signal: AbortSignal;
  expired = false;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;

  constructor(ms: number | null, callerSignal: AbortSignal) {
    this.ms = ms;
    this.callerSignal = callerSignal;
    this.signal = AbortSignal.any([callerSignal, this.controller.signal]);
    this.touch();
  }

  touch(): void {
    if (this.ms === null) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException('backend silent', 'TimeoutError'));
    }, this.ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/** The backend's own words about an error, from the usual JSON shapes, or the start of the text. */
function upstreamMessage(body: string): string {
  if (!body.trim()) return '';
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const error = parsed.error;
    const candidates = [
      typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : error,
      parsed.detail,
      parsed.message,
      parsed.title,
    ];
    const found = candidates.find((c) => typeof c === 'string' && c.trim());
    if (typeof found === 'string') return clip(found);
  } catch {
    // Not JSON: the text itself.
  }
  return preview(body);
}

const clip = (s: string) => (s.length > MESSAGE_LIMIT ? `${s.slice(0, MESSAGE_LIMIT)}…` : s);

/** A short, single-line look at a body, for messages. */
export function preview(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim()) || 'an empty body';
}
