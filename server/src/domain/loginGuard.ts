import type { ServerConfig } from '../config.ts';
import { AttemptLimiter } from './attemptLimiter.ts';
import { DomainError } from './errors.ts';

export class RateLimited extends DomainError {
  readonly retryAfterSec: number;
  constructor(retryAfterMs: number) {
    super('RATE_LIMITED', 429, 'too many attempts');
    this.retryAfterSec = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

/**
 * Brute-force protection for the password forms. Per IP: all attempts count, which slows one
 * machine trying many accounts. Per account: only failures count, which slows many machines
 * trying one account, and a success clears it, so the owner is rarely locked out by typos.
 */
export class LoginGuard {
  private readonly loginIp: AttemptLimiter;
  private readonly loginAccount: AttemptLimiter;
  private readonly resetIp: AttemptLimiter;
  private readonly resetAccount: AttemptLimiter;
  private readonly registerIp: AttemptLimiter;

  constructor(limits: ServerConfig['limits'], now: () => number = Date.now) {
    this.loginIp = new AttemptLimiter(limits.loginPerIp, now);
    this.loginAccount = new AttemptLimiter(limits.loginPerAccount, now);
    this.resetIp = new AttemptLimiter(limits.resetPerIp, now);
    this.resetAccount = new AttemptLimiter(limits.resetPerAccount, now);
    this.registerIp = new AttemptLimiter(limits.registerPerIp, now);
  }

  /** Call before checking a password; throws RATE_LIMITED. */
  beginLogin(ip: string, email: string): void {
    refuseIfBlocked(this.loginIp, ip, this.loginAccount, email);
    this.loginIp.hit(ip);
  }

  loginFailed(email: string): void {
    this.loginAccount.hit(email);
  }

  loginSucceeded(email: string): void {
    this.loginAccount.reset(email);
  }

  /** Every request counts, found account or not, so the limit does not reveal which emails exist. */
  beginPasswordReset(ip: string, email: string): void {
    refuseIfBlocked(this.resetIp, ip, this.resetAccount, email);
    this.resetIp.hit(ip);
    this.resetAccount.hit(email);
  }

  beginRegister(ip: string): void {
    const wait = this.registerIp.blockedFor(ip);
    if (wait > 0) throw new RateLimited(wait);
    this.registerIp.hit(ip);
  }
}

function refuseIfBlocked(byIp: AttemptLimiter, ip: string, byAccount: AttemptLimiter, email: string): void {
  const wait = Math.max(byIp.blockedFor(ip), byAccount.blockedFor(email));
  if (wait > 0) throw new RateLimited(wait);
}
