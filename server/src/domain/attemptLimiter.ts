import type { LimitRule } from '../config.ts';

/**
 * Counts attempts per key in fixed windows, in memory (one server node; Redis is the scale-out
 * plan). Used against password guessing: per IP and per account.
 */
export class AttemptLimiter {
  readonly rule: LimitRule;
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly now: () => number;

  constructor(rule: LimitRule, now: () => number = Date.now) {
    this.rule = rule;
    this.now = now;
  }

  /** Milliseconds until `key` may try again, or 0 when it may try now. */
  blockedFor(key: string): number {
    const w = this.windows.get(key);
    if (!w) return 0;
    const left = w.resetAt - this.now();
    if (left <= 0) {
      this.windows.delete(key);
      return 0;
    }
    return w.count >= this.rule.max ? left : 0;
  }

  hit(key: string): void {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 100_000) this.prune(now);
      this.windows.set(key, { count: 1, resetAt: now + this.rule.windowMs });
    } else w.count++;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}
