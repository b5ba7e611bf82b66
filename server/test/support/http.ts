import { ORIGIN, type TestServer } from './testServer.ts';

export interface Call {
  method?: string;
  body?: unknown;
  cookie?: string | null;
  /** Defaults to the site's own origin on writes, as a browser sends it. */
  origin?: string | null;
  headers?: Record<string, string>;
  ip?: string;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The session cookie this answer set ('' when it cleared it), if any. */
  setCookie: string | null;
}

let ipCounter = 0;
/** A fresh client address per call unless given, so rate limits only bite where a test wants them. */
const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export async function call<T = any>(server: TestServer, path: string, init: Call = {}): Promise<Answer<T>> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { 'x-forwarded-for': init.ip ?? nextIp(), ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  const origin = init.origin === undefined ? (method === 'GET' ? null : ORIGIN) : init.origin;
  if (origin) headers.origin = origin;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await server.app.request(path, { method, headers, body });
  const text = await res.text();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('atelier_session='));
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as T) : (undefined as T),
    headers: res.headers,
    setCookie: cookie ? cookie.split(';')[0]!.slice('atelier_session='.length) : null,
  };
}

let emailCounter = 0;
export function uniqueEmail(label = 'user'): string {
  return `${label}-${Date.now().toString(36)}-${++emailCounter}@example.com`;
}

export interface SignedIn {
  id: string;
  email: string;
  password: string;
  cookie: string;
  role: 'user' | 'admin';
}

/** Registers a fresh account and returns its session cookie. */
export async function signUp(server: TestServer, label = 'user'): Promise<SignedIn> {
  const email = uniqueEmail(label);
  const password = 'a long enough password';
  const res = await call(server, '/api/auth/register', { body: { email, password } });
  if (res.status !== 201 || !res.setCookie) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, email, password, cookie: `atelier_session=${res.setCookie}`, role: res.body.role };
}
