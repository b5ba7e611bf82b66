import { describe, expect, it } from 'vitest';
import { LoginGuard, RateLimited } from '../src/domain/loginGuard.ts';

const rule = { max: 2, windowMs: 60_000 };
const limits = { loginPerIp: { max: 5, windowMs: 60_000 }, loginPerAccount: rule, resetPerIp: rule, resetPerAccount: rule, registerPerIp: rule };

describe('login guard', () => {
  it('blocks an account after its failures, until the window has passed', () => {
    let now = 0;
    const guard = new LoginGuard(limits, () => now);
    guard.beginLogin('1.1.1.1', 'a@x');
    guard.loginFailed('a@x');
    guard.beginLogin('2.2.2.2', 'a@x');
    guard.loginFailed('a@x');
    expect(() => guard.beginLogin('3.3.3.3', 'a@x')).toThrow(RateLimited);
    try {
      guard.beginLogin('3.3.3.3', 'a@x');
    } catch (err) {
      expect((err as RateLimited).retryAfterSec).toBe(60);
    }
    now = 60_001;
    expect(() => guard.beginLogin('3.3.3.3', 'a@x')).not.toThrow();
  });

  it('forgets an account’s failures after a successful login', () => {
    const guard = new LoginGuard(limits, () => 0);
    guard.loginFailed('b@x');
    guard.loginSucceeded('b@x');
    guard.loginFailed('b@x');
    expect(() => guard.beginLogin('1.1.1.1', 'b@x')).not.toThrow();
  });

  it('counts every attempt from one IP, whichever account', () => {
    const guard = new LoginGuard(limits, () => 0);
    for (let i = 0; i < 5; i++) guard.beginLogin('9.9.9.9', `u${i}@x`);
    expect(() => guard.beginLogin('9.9.9.9', 'fresh@x')).toThrow(RateLimited);
    expect(() => guard.beginLogin('8.8.8.8', 'fresh@x')).not.toThrow();
  });
});
