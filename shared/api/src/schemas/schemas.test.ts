import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../errors.ts';
import { CreditAdjustmentBody, ErrorResponse, LoginBody, RegisterBody, UpdatePasswordBody } from './index.ts';

describe('shared API schemas', () => {
  it('normalise emails the way the server stores them', () => {
    expect(RegisterBody.parse({ email: '  Ada@Example.COM ', password: 'long enough' }).email).toBe('ada@example.com');
    expect(LoginBody.safeParse({ email: 'ada@', password: 'x' }).success).toBe(false);
  });

  it('want exactly one way to prove a password change', () => {
    expect(UpdatePasswordBody.safeParse({ token: 't'.repeat(43), password: 'new password' }).success).toBe(true);
    expect(UpdatePasswordBody.safeParse({ currentPassword: 'old', password: 'new password' }).success).toBe(true);
    expect(UpdatePasswordBody.safeParse({ password: 'new password' }).success).toBe(false);
    expect(UpdatePasswordBody.safeParse({ token: 't'.repeat(43), currentPassword: 'old', password: 'new password' }).success).toBe(false);
  });

  it('refuse zero and fractional credit adjustments', () => {
    expect(CreditAdjustmentBody.safeParse({ amount: -5, reason: 'refund' }).success).toBe(true);
    expect(CreditAdjustmentBody.safeParse({ amount: 0, reason: 'x' }).success).toBe(false);
    expect(CreditAdjustmentBody.safeParse({ amount: 0.5, reason: 'x' }).success).toBe(false);
  });

  it('describe the error shape with every catalogue code', () => {
    for (const code of ERROR_CODES) {
      expect(ErrorResponse.safeParse({ error: { code, message: 'm', status: 400 } }).success).toBe(true);
    }
    expect(ErrorResponse.safeParse({ error: { code: 'MADE_UP', message: 'm', status: 400 } }).success).toBe(false);
  });
});
