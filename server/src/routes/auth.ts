import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  ForgotPasswordBody,
  LoginBody,
  OAuthCallbackQuery,
  OAuthProviderList,
  OAuthProviderParams,
  OAuthStartQuery,
  Ok,
  RegisterBody,
  SessionResponse,
  UpdatePasswordBody,
  type OAuthCallbackResult,
  type OAuthProviderId,
} from '@atelier/api/schemas';
import { localePath, splitLocalePath } from '@atelier/i18n/locale';
import { checkCredentials, createAccount, findUserByEmail, getUser, setPassword } from '../domain/accounts.ts';
import { botChallengeToken } from '../domain/botChallenge.ts';
import { balanceOf } from '../domain/creditsLedger.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { OAUTH_FLOW_TTL_MS, accountForIdentity, beginOAuthFlow, takeOAuthFlow } from '../domain/oauthSignIn.ts';
import { completePasswordReset, issuePasswordReset } from '../domain/passwordResets.ts';
import { safeEqual } from '../domain/secrets.ts';
import { endSession, startSession } from '../domain/sessions.ts';
import type { UserRow } from '../db/schema.ts';
import { passwordResetLink, passwordResetMail } from '../mail/passwordResetMail.ts';
import type { AppEnv } from '../http/appEnv.ts';
import { clientIp } from '../http/clientIp.ts';
import { requestLanguage } from '../http/errorCatalogue.ts';
import { createRouter, errorResponses, jsonBody, jsonContent, SESSION_SECURITY } from '../http/openapi.ts';
import { sessionBody } from '../http/responses.ts';
import { SESSION_COOKIE, clearSessionCookie, setSessionCookie, signedInUser } from '../http/sessionAuth.ts';
import type { Services } from '../services.ts';

const tags = ['auth'];

const session = createRoute({
  method: 'get',
  path: '/auth/session',
  tags,
  summary: 'The current session',
  description: 'A visitor gets `{ user: null }`; an expired session answers 401 SESSION_EXPIRED once and clears the cookie.',
  responses: { 200: jsonContent(SessionResponse, 'The signed-in user, role and balance, or no user'), ...errorResponses(401) },
});

const register = createRoute({
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Create an account and sign in',
  description: 'The first account becomes an admin. New accounts receive the configured free credits. With a bot challenge configured, `botChallengeToken` (or `cf-turnstile-response`) must carry the token from the widget; a missing or refused one answers 403 BOT_CHECK_FAILED.',
  request: { body: jsonBody(RegisterBody) },
  responses: { 201: jsonContent(SessionResponse, 'Signed in; the session cookie is set'), ...errorResponses(400, 403, 409, 413, 429) },
});

const login = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in with email and password',
  description: 'With a bot challenge configured, `botChallengeToken` (or `cf-turnstile-response`) must carry the token from the widget; a missing or refused one answers 403 BOT_CHECK_FAILED.',
  request: { body: jsonBody(LoginBody) },
  responses: { 200: jsonContent(SessionResponse, 'Signed in; the session cookie is set'), ...errorResponses(400, 401, 403, 429) },
});

const logout = createRoute({
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Sign out',
  description: 'Ends the session and clears the cookie; answers the same when there was no session.',
  responses: { 200: jsonContent(Ok, 'Signed out'), ...errorResponses(403) },
});

const forgotPassword = createRoute({
  method: 'post',
  path: '/auth/forgot-password',
  tags,
  summary: 'Email a password-reset link',
  description:
    'Answers the same whether or not the email has an account. The email and the page its link opens are in the language of the request (language cookie, then Accept-Language). With a bot challenge configured, `botChallengeToken` (or `cf-turnstile-response`) must carry the token from the widget; a missing or refused one answers 403 BOT_CHECK_FAILED.',
  request: { body: jsonBody(ForgotPasswordBody) },
  responses: { 202: jsonContent(Ok, 'If the account exists, a link is on its way'), ...errorResponses(400, 403, 429) },
});

const updatePassword = createRoute({
  method: 'post',
  path: '/auth/update-password',
  tags,
  summary: 'Set a new password',
  description:
    'With `token` (from the emailed link) or, signed in, with `currentPassword`. Every other session of the account ends; the caller is signed in with a fresh one.',
  security: [{}, ...SESSION_SECURITY],
  request: { body: jsonBody(UpdatePasswordBody) },
  responses: { 200: jsonContent(SessionResponse, 'Password changed; signed in'), ...errorResponses(400, 401, 403, 429) },
});

const providers = createRoute({
  method: 'get',
  path: '/auth/providers',
  tags,
  summary: 'The sign-in providers this server offers',
  description: 'A provider is listed when its client id and secret are configured; show one button per entry.',
  responses: { 200: jsonContent(OAuthProviderList, 'Configured providers, possibly none') },
});

/** The front end's page that shows how a sign-in with a provider ended. */
const CALLBACK_PAGE = '/auth/callback';
const CALLBACK_PAGE_DOC =
  '`/auth/callback` with `status=ok`, or `status=error` and `code` (OAUTH_CANCELLED, OAUTH_EMAIL_UNVERIFIED, ACCOUNT_DISABLED, OAUTH_FAILED), plus `provider` and the `returnTo` given at the start (schema OAuthCallbackResult)';
const redirect = (description: string) => ({
  description,
  headers: { location: { description: 'Where the browser goes next', schema: { type: 'string' as const } } },
});

const oauthStart = createRoute({
  method: 'get',
  path: '/auth/oauth/{provider}/start',
  tags,
  summary: 'Start signing in with a provider',
  description:
    'Navigate the browser here (a link, not a fetch). Redirects to the provider with state and PKCE, and a nonce for OpenID Connect; the provider sends the browser back to `/api/auth/oauth/{provider}/callback`. `returnTo`, a path on this site, is handed back to the front end at the end.',
  request: { params: OAuthProviderParams, query: OAuthStartQuery },
  responses: { 302: redirect(`To the provider; when the provider cannot be reached, to ${CALLBACK_PAGE_DOC}`), ...errorResponses(400, 404) },
});

const oauthCallback = createRoute({
  method: 'get',
  path: '/auth/oauth/{provider}/callback',
  tags,
  summary: 'Finish signing in with a provider',
  description:
    "The redirect URI to register with the provider: `<ATELIER_SITE_URL>/api/auth/oauth/<provider>/callback`. Checks the state against the browser's, exchanges the code, then signs into the account linked to the provider identity; else the account with the identity's verified email, which it links; else a new account (first-admin rule and free credits apply). Every outcome is a redirect, never a JSON error.",
  request: { params: OAuthProviderParams, query: OAuthCallbackQuery },
  responses: { 302: redirect(`To ${CALLBACK_PAGE_DOC}; with status=ok the session cookie is set`), ...errorResponses(400) },
});

/** The state of this browser's sign-in in progress; sent back only to the OAuth routes. */
const OAUTH_STATE_COOKIE = 'atelier_oauth_state';
const OAUTH_COOKIE_PATH = '/api/auth/oauth';

export function authRoutes(services: Services) {
  const { db, config, loginGuard, botChallenge } = services;
  const app = createRouter();

  /** Starts a session, sets its cookie and answers with the session body. */
  async function signIn(c: Context<AppEnv>, user: UserRow) {
    const previous = getCookie(c, SESSION_COOKIE);
    if (previous) await endSession(db, previous);
    const { token, expiresAt } = await startSession(db, user.id, config.sessionTtlMs, {
      ip: clientIp(c, config.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
    });
    setSessionCookie(c, services, token, expiresAt);
    return sessionBody(user, await balanceOf(db, user.id), expiresAt);
  }

  app.openapi(session, async (c) => {
    const s = c.get('session');
    if (s.status === 'expired') throw new DomainError('SESSION_EXPIRED', 401);
    if (s.status === 'none') return c.json({ user: null }, 200);
    return c.json(sessionBody(s.user, await balanceOf(db, s.user.id), s.expiresAt), 200);
  });

  app.openapi(register, async (c) => {
    const body = c.req.valid('json');
    const ip = clientIp(c, config.trustProxy);
    loginGuard.beginRegister(ip);
    await botChallenge.verify(botChallengeToken(body), ip);
    const user = await createAccount(db, { email: body.email, password: body.password, name: body.name ?? null }, config.freeCredits);
    return c.json(await signIn(c, user), 201);
  });

  app.openapi(login, async (c) => {
    const body = c.req.valid('json');
    const { email, password } = body;
    const ip = clientIp(c, config.trustProxy);
    loginGuard.beginLogin(ip, email);
    await botChallenge.verify(botChallengeToken(body), ip);
    let user: UserRow;
    try {
      user = await checkCredentials(db, email, password);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'INVALID_CREDENTIALS') loginGuard.loginFailed(email);
      throw err;
    }
    loginGuard.loginSucceeded(email);
    return c.json(await signIn(c, user), 200);
  });

  app.openapi(logout, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await endSession(db, token);
    clearSessionCookie(c);
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(forgotPassword, async (c) => {
    const body = c.req.valid('json');
    const { email } = body;
    const ip = clientIp(c, config.trustProxy);
    loginGuard.beginPasswordReset(ip, email);
    await botChallenge.verify(botChallengeToken(body), ip);
    const user = await findUserByEmail(db, email);
    if (user && !user.disabledAt) {
      const minutes = Math.round(config.passwordResetTtlMs / 60_000);
      const token = await issuePasswordReset(db, user.id, config.passwordResetTtlMs);
      const language = requestLanguage({ cookie: c.req.header('cookie'), acceptLanguage: c.req.header('accept-language') });
      const link = passwordResetLink(config.publicConfig.siteUrl, token, language);
      try {
        await services.mailer.send(passwordResetMail(user.email, link, minutes, language));
      } catch (err) {
        // The answer must not differ for existing accounts; the operator sees the failure.
        console.error('password reset mail failed:', (err as Error).message);
      }
    }
    return c.json({ ok: true as const }, 202);
  });

  app.openapi(updatePassword, async (c) => {
    const body = c.req.valid('json');
    let userId: string;
    if (body.token !== undefined) {
      userId = await completePasswordReset(db, body.token, body.password);
    } else {
      const me = signedInUser(c);
      loginGuard.beginLogin(clientIp(c, config.trustProxy), me.email);
      try {
        await checkCredentials(db, me.email, body.currentPassword!);
      } catch (err) {
        if (err instanceof DomainError && err.code === 'INVALID_CREDENTIALS') {
          loginGuard.loginFailed(me.email);
          // 400, not 401: the session is fine, only the typed password is wrong.
          throw new DomainError('INVALID_CREDENTIALS', 400);
        }
        throw err;
      }
      await setPassword(db, me.id, body.password);
      userId = me.id;
    }
    const user = await getUser(db, userId);
    if (user.disabledAt) throw new DomainError('ACCOUNT_DISABLED', 403);
    return c.json(await signIn(c, user), 200);
  });

  app.openapi(providers, (c) => {
    const list = [...services.oauthProviders.values()].map((p) => ({ id: p.id, name: p.name, startUrl: `/api/auth/oauth/${p.id}/start` }));
    return c.json({ providers: list }, 200);
  });

  /** What is registered with the provider, so ATELIER_SITE_URL must be the address people use. */
  const redirectUri = (provider: OAuthProviderId) => `${config.publicConfig.siteUrl}/api/auth/oauth/${provider}/callback`;

  /** The front end's callback page, under the language prefix of `returnTo`, told the outcome. */
  function toCallbackPage(c: Context<AppEnv>, result: OAuthCallbackResult) {
    const prefix = result.returnTo ? splitLocalePath(result.returnTo).prefix : null;
    const query = new URLSearchParams(Object.entries(result).filter((e): e is [string, string] => e[1] !== undefined));
    c.header('cache-control', 'no-store');
    return c.redirect(`${localePath(prefix, CALLBACK_PAGE)}?${query}`, 302);
  }

  app.openapi(oauthStart, async (c) => {
    const { provider: id } = c.req.valid('param');
    const { returnTo } = c.req.valid('query');
    const provider = services.oauthProviders.get(id);
    if (!provider) throw notFound('sign-in provider');
    const flow = await beginOAuthFlow(db, id, returnTo ?? null);
    let url: URL;
    try {
      url = await provider.authorizationUrl(flow, redirectUri(id));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return toCallbackPage(c, { status: 'error', provider: id, code: err.code, returnTo });
    }
    setCookie(c, OAUTH_STATE_COOKIE, flow.state, {
      httpOnly: true,
      // Lax: sent along on the provider's top-level redirect back, never on cross-site posts.
      sameSite: 'Lax',
      path: OAUTH_COOKIE_PATH,
      secure: config.publicConfig.siteUrl.startsWith('https:'),
      maxAge: OAUTH_FLOW_TTL_MS / 1000,
    });
    c.header('cache-control', 'no-store');
    return c.redirect(url.toString(), 302);
  });

  app.openapi(oauthCallback, async (c) => {
    const { provider: id } = c.req.valid('param');
    const { state } = c.req.valid('query');
    const browserState = getCookie(c, OAUTH_STATE_COOKIE);
    deleteCookie(c, OAUTH_STATE_COOKIE, { path: OAUTH_COOKIE_PATH });
    let returnTo: string | undefined;
    try {
      const provider = services.oauthProviders.get(id);
      if (!provider) throw new DomainError('OAUTH_FAILED', 404, `${id} is not configured`);
      // Only the browser that started the sign-in may finish it; otherwise a link carrying someone
      // else's code would sign this browser into their account.
      if (!state || !browserState || !safeEqual(state, browserState)) throw new DomainError('OAUTH_FAILED', 400, 'state does not match this browser');
      const flow = await takeOAuthFlow(db, id, state);
      if (!flow) throw new DomainError('OAUTH_FAILED', 400, 'unknown, used or expired sign-in');
      returnTo = flow.returnTo ?? undefined;
      const identity = await provider.identify(new URL(c.req.url).searchParams, flow, redirectUri(id));
      const { user } = await accountForIdentity(db, identity, config.freeCredits);
      await signIn(c, user);
      return toCallbackPage(c, { status: 'ok', provider: id, returnTo });
    } catch (err) {
      const known = err instanceof DomainError;
      if (!known) console.error(`sign-in with ${id} failed:`, err);
      return toCallbackPage(c, { status: 'error', provider: id, code: known ? err.code : 'SYSTEM_ERROR', returnTo });
    }
  });

  return app;
}
