/**
 * What a backend sent, judged by its bytes rather than its headers (backends label files
 * `application/octet-stream`, or worse): the media type, the extension, and a picture's size.
 * Bytes of the wrong kind are the backend's failure, never stored.
 */
import type { OutputFile } from '../types.ts';
import type { BackendHttp } from './backendHttp.ts';

export type MediaKind = 'image' | 'video' | 'audio';

export interface Sniffed {
  kind: MediaKind;
  contentType: string;
  extension: string;
}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

export function sniffMedia(b: Uint8Array): Sniffed | null {
  if (b.length < 12) return null;
  if (b[0] === 0x89 && ascii(b, 1, 4) === 'PNG') return { kind: 'image', contentType: 'image/png', extension: 'png' };
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { kind: 'image', contentType: 'image/jpeg', extension: 'jpg' };
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return { kind: 'image', contentType: 'image/webp', extension: 'webp' };
  if (ascii(b, 0, 4) === 'GIF8') return { kind: 'image', contentType: 'image/gif', extension: 'gif' };
  if (ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return { kind: 'audio', contentType: 'audio/mp4', extension: 'm4a' };
    if (brand === 'qt  ') return { kind: 'video', contentType: 'video/quicktime', extension: 'mov' };
    return { kind: 'video', contentType: 'video/mp4', extension: 'mp4' };
  }
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return { kind: 'video', contentType: 'video/webm', extension: 'webm' };
  if (ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x06) !== 0)) return { kind: 'audio', contentType: 'audio/mpeg', extension: 'mp3' };
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE') return { kind: 'audio', contentType: 'audio/wav', extension: 'wav' };
  if (ascii(b, 0, 4) === 'OggS') return { kind: 'audio', contentType: 'audio/ogg', extension: 'ogg' };
  if (ascii(b, 0, 4) === 'fLaC') return { kind: 'audio', contentType: 'audio/flac', extension: 'flac' };
  return null;
}

/** Width and height from a PNG, JPEG, WebP or GIF header, without decoding the picture. */
export function imageSize(b: Uint8Array, contentType: string): { width: number; height: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    if (contentType === 'image/png') return { width: view.getUint32(16), height: view.getUint32(20) };
    if (contentType === 'image/gif') return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    if (contentType === 'image/webp') {
      const chunk = ascii(b, 12, 16);
      if (chunk === 'VP8X') return { width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
      if (chunk === 'VP8L') {
        const bits = view.getUint32(21, true);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
      return null;
    }
    if (contentType === 'image/jpeg') {
      let at = 2;
      while (at + 9 < b.length) {
        if (b[at] !== 0xff) return null;
        const marker = b[at + 1]!;
        const length = view.getUint16(at + 2);
        // Start-of-frame markers carry the size; DHT (C4), JPG (C8) and DAC (CC) share the range.
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
        }
        at += 2 + length;
      }
    }
  } catch {
    // A header cut short: no size.
  }
  return null;
}

const KIND_WORD: Record<MediaKind, string> = { image: 'a picture', video: 'a video', audio: 'audio' };

/**
 * Bytes from the backend as a file of the expected kind. `declared` (a Content-Type header) is
 * believed only for formats the sniffer does not know, and only when it names the expected kind.
 */
export function outputFileOf(http: BackendHttp, data: Uint8Array, expected: MediaKind, declared = ''): OutputFile {
  const sniffed = sniffMedia(data);
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (!sniffed) {
    if (data.length > 0 && type.startsWith(`${expected}/`)) return { data, contentType: type, extension: type.slice(expected.length + 1).replace(/^x-/, '').replace(/\W.*$/, '') };
    throw http.bad(`sent ${data.length} bytes that are not ${KIND_WORD[expected]}`);
  }
  if (sniffed.kind !== expected) throw http.bad(`sent ${KIND_WORD[sniffed.kind]} (${sniffed.contentType}) instead of ${KIND_WORD[expected]}`);
  const size = expected === 'image' ? imageSize(data, sniffed.contentType) : null;
  return { data, contentType: sniffed.contentType, extension: sniffed.extension, ...(size ? size : {}) };
}

/** `data:` URLs carry their file; anything else is fetched. */
export function decodeDataUrl(url: string): { data: Uint8Array; contentType: string } | null {
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
  if (!m) return null;
  const data = m[2] ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'utf8');
  return { data: new Uint8Array(data), contentType: m[1] ?? '' };
}

/** Base64 from a JSON answer; text that is not base64 is the backend's fault. */
export function decodeBase64(http: BackendHttp, value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || value.length === 0) throw http.bad(`${what} is missing`);
  const data = decodeDataUrl(value)?.data ?? null;
  if (data) return data;
  const text = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw http.bad(`${what} is not base64`);
  return new Uint8Array(Buffer.from(text, 'base64'));
}
