import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { DomainError } from '../domain/errors.ts';
import { SESSION_COOKIE } from './sessionAuth.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Cross-site request forgery guard for writes. SameSite=Lax already keeps the cookie off
 * cross-site posts in current browsers; this also covers older ones and same-site subdomains.
 * A write carrying the session cookie must come from the site's own origin (or one allowed by
 * configuration). A write without the cookie (login, register) is refused only when it names a
 * foreign origin, so a hostile page cannot sign a visitor into the attacker's account.
 */
export function originCheck(options: { siteUrl: string; allowedOrigins: string[] }): MiddlewareHandler {
  const allowed = new Set([options.siteUrl, ...options.allowedOrigins].map(originOf).filter((o): o is string => o !== null));
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = originOf(c.req.header('origin')) ?? originOf(c.req.header('referer'));
    const trusted = origin !== null && (origin === new URL(c.req.url).origin || allowed.has(origin));
    const withCookie = getCookie(c, SESSION_COOKIE) !== undefined;
    if (withCookie ? !trusted : origin !== null && !trusted) throw new DomainError('FORBIDDEN', 403, 'cross-origin write refused');
    return next();
  };
}
