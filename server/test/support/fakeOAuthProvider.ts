import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The person "signed in" at the provider when the browser reaches its authorize page. */
export interface FakeAccount {
  id: string;
  name: string;
  login?: string;
  /** GitHub style: every address with its flags. The first is the primary one. */
  emails: { email: string; verified: boolean }[];
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  account: FakeAccount;
}

/** What the next ID token carries wrongly, to see the server refuse it. */
export type IdTokenFault = 'wrong-nonce' | 'wrong-audience' | 'expired' | 'foreign-key' | 'wrong-issuer';

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return new URLSearchParams(body);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A local stand-in for GitHub (`style: 'github'`: plain OAuth 2.0 and its user API) or for Google
 * (`style: 'oidc'`: OpenID Connect discovery, RS256 ID tokens from a key generated here, JWKS).
 * It speaks real HTTP and checks what a real provider checks: client credentials, the redirect URI,
 * single-use codes and the PKCE verifier.
 */
export class FakeOAuthProvider {
  readonly clientId = `client-${randomBytes(4).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('hex');
  url = '';
  /** Who approves at the authorize page; null makes the person decline. */
  account: FakeAccount | null = null;
  /** Spoils the next ID token once. */
  nextIdTokenFault: IdTokenFault | null = null;
  /** Every call to the token endpoint, to see what was (or was not) exchanged. */
  readonly tokenRequests: URLSearchParams[] = [];
  readonly authorizeRequests: URLSearchParams[] = [];

  private server: Server | null = null;
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, FakeAccount>();
  private readonly key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly kid = randomBytes(6).toString('hex');

  readonly style: 'github' | 'oidc';

  constructor(style: 'github' | 'oidc') {
    this.style = style;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => json(res, 500, { error: 'server_error', error_description: err.message }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get authorizePath() {
    return this.style === 'github' ? '/login/oauth/authorize' : '/o/oauth2/v2/auth';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, this.url);
    if (this.style === 'oidc' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: this.url,
        authorization_endpoint: `${this.url}/o/oauth2/v2/auth`,
        token_endpoint: `${this.url}/token`,
        jwks_uri: `${this.url}/certs`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (this.style === 'oidc' && url.pathname === '/certs') {
      const jwk = this.key.publicKey.export({ format: 'jwk' });
      return json(res, 200, { keys: [{ ...jwk, kid: this.kid, alg: 'RS256', use: 'sig' }] });
    }
    if (url.pathname === this.authorizePath && req.method === 'GET') return this.authorize(url.searchParams, res);
    const tokenPath = this.style === 'github' ? '/login/oauth/access_token' : '/token';
    if (url.pathname === tokenPath && req.method === 'POST') return this.token(await readForm(req), res);
    if (this.style === 'github' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
      const account = this.tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (!account) return json(res, 401, { message: 'Bad credentials' });
      if (url.pathname === '/user') return json(res, 200, { id: Number(account.id), login: account.login ?? `user${account.id}`, name: account.name });
      return json(res, 200, account.emails.map((e, i) => ({ ...e, primary: i === 0, visibility: null })));
    }
    json(res, 404, { error: 'not_found' });
  }

  /** The person approves at once (or declines) and the browser is sent back. */
  private authorize(params: URLSearchParams, res: ServerResponse): void {
    this.authorizeRequests.push(params);
    const redirectUri = params.get('redirect_uri');
    const state = params.get('state');
    if (params.get('client_id') !== this.clientId || !redirectUri) return json(res, 400, { error: 'invalid_request' });
    const back = new URL(redirectUri);
    if (state) back.searchParams.set('state', state);
    if (!this.account) {
      back.searchParams.set('error', 'access_denied');
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    const challenge = params.get('code_challenge');
    if (params.get('response_type') !== 'code' || params.get('code_challenge_method') !== 'S256' || !challenge) {
      back.searchParams.set('error', 'invalid_request');
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { clientId: this.clientId, redirectUri, codeChallenge: challenge, nonce: params.get('nonce'), account: this.account });
    back.searchParams.set('code', code);
    if (this.style === 'oidc') back.searchParams.set('iss', this.url);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private token(form: URLSearchParams, res: ServerResponse): void {
    this.tokenRequests.push(form);
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) return json(res, 401, { error: 'invalid_client' });
    const code = form.get('code') ?? '';
    const issued = this.codes.get(code);
    this.codes.delete(code); // single use, even when the rest is wrong
    if (form.get('grant_type') !== 'authorization_code' || !issued) return json(res, 400, { error: 'invalid_grant' });
    if (form.get('redirect_uri') !== issued.redirectUri) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) {
      return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const accessToken = randomBytes(16).toString('hex');
    this.tokens.set(accessToken, issued.account);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: this.style === 'github' ? 'bearer' : 'Bearer', scope: 'x' };
    if (this.style === 'oidc') {
      body.expires_in = 3600;
      body.id_token = this.idToken(issued);
    }
    json(res, 200, body);
  }

  private idToken(issued: IssuedCode): string {
    const fault = this.nextIdTokenFault;
    this.nextIdTokenFault = null;
    const now = Math.floor(Date.now() / 1000);
    const primary = issued.account.emails[0];
    const claims = {
      iss: fault === 'wrong-issuer' ? 'https://accounts.example' : this.url,
      sub: issued.account.id,
      aud: fault === 'wrong-audience' ? 'someone-else' : issued.clientId,
      iat: now - 5,
      exp: fault === 'expired' ? now - 600 : now + 3600,
      nonce: fault === 'wrong-nonce' ? 'not-the-nonce' : issued.nonce,
      name: issued.account.name,
      ...(primary ? { email: primary.email, email_verified: primary.verified } : {}),
    };
    const signingKey: KeyObject = fault === 'foreign-key' ? this.foreignKey.privateKey : this.key.privateKey;
    const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid: this.kid })}.${b64url(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), signingKey).toString('base64url')}`;
  }
}
