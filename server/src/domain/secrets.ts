import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, URL-safe: session tokens, reset links, API key secrets. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored only as this hash; they have full entropy, so no salt or slow hash is needed. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
