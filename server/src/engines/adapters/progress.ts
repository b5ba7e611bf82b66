/** Turns a backend's progress reports into the fraction and time-left estimate the runner shows. */
import type { GenerationContext } from '../types.ts';

export class ProgressReporter {
  private readonly ctx: GenerationContext;
  private readonly started = Date.now();
  private last = 0;

  constructor(ctx: GenerationContext) {
    this.ctx = ctx;
    ctx.onProgress(0);
  }

  /** `fraction` of the work is done; the estimate assumes the rest goes at the pace so far. Never goes backwards. */
  report(fraction: number, etaMs?: number): void {
    if (!Number.isFinite(fraction)) return;
    const f = Math.min(1, Math.max(this.last, fraction));
    this.last = f;
    const elapsed = Date.now() - this.started;
    const eta = etaMs ?? (f > 0.01 && f < 1 ? Math.round((elapsed / f) * (1 - f)) : undefined);
    this.ctx.onProgress(f, eta);
  }

  done(): void {
    this.report(1, 0);
  }
}
