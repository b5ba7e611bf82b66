/**
 * The protocol side of signing in with GitHub (OAuth 2.0) and Google (OpenID Connect), through
 * oauth4webapi: authorization code flow with PKCE and state, plus nonce and ID token checks
 * (issuer, audience, expiry, signature against the provider's JWKS) for Google.
 */
import * as oauth from 'oauth4webapi';
import type { OAuthProviderId } from '@atelier/api/schemas';
import type { OAuthConfig } from '../config.ts';
import { DomainError } from './errors.ts';

/** Who the provider says signed in. */
export interface ProviderIdentity {
  provider: OAuthProviderId;
  /** The provider's stable id for the person; unlike an email it never passes to someone else. */
  subject: string;
  /** An address the provider has verified the person owns; null when there is none. */
  email: string | null;
  name: string | null;
}

/** The secrets of one sign-in, made at its start and needed again at its end. */
export interface FlowSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
}

export interface OAuthProvider {
  id: OAuthProviderId;
  /** The provider's own name, for its button. */
  name: string;
  /** Where to send the browser. */
  authorizationUrl(flow: FlowSecrets, redirectUri: string): Promise<URL>;
  /**
   * Checks the parameters the provider sent the browser back with, exchanges the code and says
   * who signed in. Throws OAUTH_CANCELLED when the person declined, OAUTH_FAILED otherwise.
   */
  identify(callback: URLSearchParams, flow: FlowSecrets, redirectUri: string): Promise<ProviderIdentity>;
}

export function newFlowSecrets(): FlowSecrets {
  return { state: oauth.generateRandomState(), codeVerifier: oauth.generateRandomCodeVerifier(), nonce: oauth.generateRandomNonce() };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
type RequestOptions = { [oauth.allowInsecureRequests]?: boolean };

/**
 * oauth4webapi refuses plain http. A stand-in provider on this machine (the tests') is the one
 * exception; anywhere else the endpoints must be https.
 */
function requestOptions(...urls: string[]): RequestOptions {
  const plainLoopback = urls.some((u) => new URL(u).protocol === 'http:');
  const allowed = urls.every((u) => new URL(u).protocol === 'https:' || LOOPBACK.has(new URL(u).hostname));
  return plainLoopback && allowed ? { [oauth.allowInsecureRequests]: true } : {};
}

/** Every protocol failure becomes OAUTH_FAILED (or OAUTH_CANCELLED); the operator log says why. */
async function protocol<T>(provider: OAuthProviderId, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof oauth.AuthorizationResponseError && err.error === 'access_denied') {
      throw new DomainError('OAUTH_CANCELLED', 400, `${provider}: the person declined`);
    }
    console.error(`sign-in with ${provider} failed:`, (err as Error).message);
    throw new DomainError('OAUTH_FAILED', 502, `${provider}: ${(err as Error).message}`);
  }
}

function authorizationUrl(endpoint: string, params: Record<string, string>): URL {
  const url = new URL(endpoint);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

function gitHub(config: NonNullable<OAuthConfig['github']>): OAuthProvider {
  // GitHub publishes no discovery document; its endpoints are fixed.
  const as: oauth.AuthorizationServer = {
    issuer: config.webBase,
    authorization_endpoint: `${config.webBase}/login/oauth/authorize`,
    token_endpoint: `${config.webBase}/login/oauth/access_token`,
  };
  const client: oauth.Client = { client_id: config.clientId };
  const clientAuth = oauth.ClientSecretPost(config.clientSecret);
  const options = requestOptions(config.webBase, config.apiBase);

  async function api<T>(accessToken: string, path: string): Promise<T> {
    const headers = new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'Atelier', 'x-github-api-version': '2022-11-28' });
    const res = await oauth.protectedResourceRequest(accessToken, 'GET', new URL(`${config.apiBase}${path}`), headers, null, options);
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  return {
    id: 'github',
    name: 'GitHub',
    async authorizationUrl(flow, redirectUri) {
      return authorizationUrl(as.authorization_endpoint!, {
        client_id: config.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        // The profile, and the addresses with whether GitHub verified them.
        scope: 'read:user user:email',
        state: flow.state,
        code_challenge: await oauth.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    identify: (callback, flow, redirectUri) =>
      protocol('github', async () => {
        const params = oauth.validateAuthResponse(as, client, callback, flow.state);
        const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, flow.codeVerifier, options);
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
        const user = await api<{ id: number; login: string; name: string | null }>(tokens.access_token, '/user');
        const emails = await api<{ email: string; primary: boolean; verified: boolean }[]>(tokens.access_token, '/user/emails');
        const verified = emails.filter((e) => e.verified);
        const email = verified.find((e) => e.primary) ?? verified[0];
        if (typeof user.id !== 'number') throw new Error('the user API answered without an id');
        return { provider: 'github', subject: String(user.id), email: email?.email ?? null, name: user.name || user.login || null };
      }),
  };
}

const DISCOVERY_MAX_AGE_MS = 24 * 3600_000;

function google(config: NonNullable<OAuthConfig['google']>): OAuthProvider {
  const issuer = new URL(config.issuer);
  const client: oauth.Client = { client_id: config.clientId };
  const clientAuth = oauth.ClientSecretPost(config.clientSecret);
  const options = requestOptions(config.issuer);
  // Keys are fetched once and again only when a token names a key not seen yet.
  const jwks: oauth.JWKSCacheInput = {};
  let discovered: { at: number; as: Promise<oauth.AuthorizationServer> } | null = null;

  function authorizationServer(): Promise<oauth.AuthorizationServer> {
    if (!discovered || Date.now() - discovered.at > DISCOVERY_MAX_AGE_MS) {
      const as = oauth
        .discoveryRequest(issuer, { algorithm: 'oidc', ...options })
        .then((res) => oauth.processDiscoveryResponse(issuer, res));
      discovered = { at: Date.now(), as };
      // A failed discovery is tried again on the next sign-in, not remembered.
      as.catch(() => {
        if (discovered?.as === as) discovered = null;
      });
    }
    return discovered.as;
  }

  return {
    id: 'google',
    name: 'Google',
    authorizationUrl: (flow, redirectUri) =>
      protocol('google', async () => {
        const as = await authorizationServer();
        if (!as.authorization_endpoint) throw new Error('the discovery document has no authorization_endpoint');
        return authorizationUrl(as.authorization_endpoint, {
          client_id: config.clientId,
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: 'openid email profile',
          state: flow.state,
          nonce: flow.nonce,
          code_challenge: await oauth.calculatePKCECodeChallenge(flow.codeVerifier),
          code_challenge_method: 'S256',
          // People with several Google accounts choose one instead of being signed in silently.
          prompt: 'select_account',
        });
      }),
    identify: (callback, flow, redirectUri) =>
      protocol('google', async () => {
        const as = await authorizationServer();
        const params = oauth.validateAuthResponse(as, client, callback, flow.state);
        const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, flow.codeVerifier, options);
        // Checks the ID token's iss, aud, azp, exp, iat and nonce...
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, res, { expectedNonce: flow.nonce, requireIdToken: true });
        // ...and its signature with the issuer's published keys, though TLS already vouches for
        // the token endpoint: a misconfigured issuer URL must not let a forged token through.
        await oauth.validateApplicationLevelSignature(as, res, { ...options, [oauth.jwksCache]: jwks });
        const claims = oauth.getValidatedIdTokenClaims(tokens)!;
        const email = claims.email_verified === true && typeof claims.email === 'string' ? claims.email : null;
        return { provider: 'google', subject: claims.sub, email, name: typeof claims.name === 'string' ? claims.name : null };
      }),
  };
}

/** The providers with client credentials configured, in the order their buttons appear. */
export function createOAuthProviders(config: OAuthConfig): Map<OAuthProviderId, OAuthProvider> {
  const providers = new Map<OAuthProviderId, OAuthProvider>();
  if (config.google) providers.set('google', google(config.google));
  if (config.github) providers.set('github', gitHub(config.github));
  return providers;
}
