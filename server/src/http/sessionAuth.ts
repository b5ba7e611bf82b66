import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { UserRow } from '../db/schema.ts';
import { DomainError } from '../domain/errors.ts';
import { safeEqual, sha256Hex } from '../domain/secrets.ts';
import { checkSession } from '../domain/sessions.ts';
import type { Services } from '../services.ts';
import type { Actor, AppEnv } from './appEnv.ts';

export const SESSION_COOKIE = 'atelier_session';

/** httpOnly (scripts cannot read it), SameSite=Lax (not sent on cross-site posts), Secure on https. */
export function setSessionCookie(c: Context, services: Services, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: services.config.publicConfig.siteUrl.startsWith('https:'),
    expires: expiresAt,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

/** Resolves the session cookie (if any) for every /api request; routes decide what they require. */
export function sessionAuth(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (!token) {
      c.set('session', { status: 'none' });
      return next();
    }
    const check = await checkSession(services.db, token, services.config.sessionTtlMs);
    if (check.status === 'valid') {
      if (check.renewed) setSessionCookie(c, services, token, check.renewed.expiresAt);
      c.set('session', { status: 'valid', user: check.user, sessionId: check.sessionId, expiresAt: check.expiresAt });
    } else {
      clearSessionCookie(c);
      c.set('session', check);
    }
    return next();
  };
}

function refuseAnonymous(c: Context<AppEnv>): never {
  throw c.get('session').status === 'expired' ? new DomainError('SESSION_EXPIRED', 401) : new DomainError('LOGIN_REQUIRED', 401);
}

/** Route middleware: a signed-in user, before any input is looked at. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('session').status !== 'valid') refuseAnonymous(c);
  await next();
};

/** The signed-in user of a route guarded by requireUser. */
export function signedInUser(c: Context<AppEnv>): UserRow {
  const session = c.get('session');
  if (session.status !== 'valid') refuseAnonymous(c);
  return session.user;
}

/** Route middleware for /api/admin: an admin's session, or the operator token as a bearer. */
export function requireAdmin(services: Services): MiddlewareHandler<AppEnv> {
  const expected = services.operatorToken ? sha256Hex(services.operatorToken) : null;
  return async (c, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (bearer !== undefined) {
      if (!expected || !safeEqual(sha256Hex(bearer), expected)) throw new DomainError('UNAUTHORIZED', 401);
      c.set('actor', { kind: 'operator' });
      return next();
    }
    const user = signedInUser(c);
    if (user.role !== 'admin') throw new DomainError('FORBIDDEN', 403, 'admins only');
    c.set('actor', { kind: 'admin', user });
    return next();
  };
}

export function adminActor(c: Context<AppEnv>): Actor {
  return c.get('actor');
}

/** The user id recorded as the author of an admin action; null for the operator. */
export function actorId(actor: Actor): string | null {
  return actor.kind === 'admin' ? actor.user.id : null;
}
