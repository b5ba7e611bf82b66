import { createHash, createHmac } from 'node:crypto';
import { checkKey, type ByteRange, type MediaStorage } from './mediaStorage.ts';

export interface S3Settings {
  /** e.g. `http://127.0.0.1:9000` for MinIO; without it, AWS S3 in `region`. */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key`; the default with an endpoint. */
  pathStyle: boolean;
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, `/` kept in paths. */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to send and sign (lower-case names); host and the x-amz ones are added. */
  headers: Record<string, string>;
  payloadHash: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
  now?: Date;
}

/** AWS Signature Version 4 for one request; returns every header to send, Authorization included. */
export function signRequest(input: SignInput): Record<string, string> {
  const service = input.service ?? 's3';
  const amzDate = (input.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v])),
    host: input.url.host,
    'x-amz-content-sha256': input.payloadHash,
    'x-amz-date': amzDate,
  };
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...input.url.searchParams.entries()]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [input.method, encodePath(decodeURIComponent(input.url.pathname)), query, canonicalHeaders, signedHeaders, input.payloadHash].join('\n');
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), service), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  delete headers.host;
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** A small S3 client (PUT, GET with Range, DELETE) over fetch: enough for media, no SDK. */
export function createS3Storage(settings: S3Settings): MediaStorage {
  const base = settings.endpoint
    ? new URL(settings.endpoint.replace(/\/+$/, ''))
    : new URL(`https://s3.${settings.region}.amazonaws.com`);
  const urlOf = (key: string): URL => {
    const path = encodePath(checkKey(key));
    if (settings.pathStyle) return new URL(`${base.origin}${base.pathname.replace(/\/$/, '')}/${settings.bucket}/${path}`);
    return new URL(`${base.protocol}//${settings.bucket}.${base.host}/${path}`);
  };
  const send = async (method: string, key: string, extra: Record<string, string> = {}, body?: Uint8Array) => {
    const url = urlOf(key);
    const headers = signRequest({
      method,
      url,
      headers: extra,
      payloadHash: body ? sha256Hex(body) : EMPTY_SHA256,
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
    });
    return fetch(url, { method, headers, ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}) });
  };
  const fail = async (what: string, res: Response): Promise<never> => {
    const text = await res.text().catch(() => '');
    throw new Error(`S3 ${what} failed: ${res.status} ${text.slice(0, 300)}`);
  };
  return {
    kind: 's3',
    async put(key, data, contentType) {
      const res = await send('PUT', key, { 'content-type': contentType, 'content-length': String(data.byteLength) }, data);
      if (!res.ok) await fail(`PUT ${key}`, res);
      await res.arrayBuffer();
    },
    async read(key, range?: ByteRange) {
      const res = await send('GET', key, range ? { range: `bytes=${range.start}-${range.end}` } : {});
      if (res.status === 404) {
        await res.arrayBuffer();
        return null;
      }
      if (!res.ok || !res.body) return fail(`GET ${key}`, res);
      return res.body as ReadableStream<Uint8Array>;
    },
    async delete(key) {
      const res = await send('DELETE', key);
      if (!res.ok && res.status !== 404) await fail(`DELETE ${key}`, res);
      await res.arrayBuffer();
    },
  };
}
