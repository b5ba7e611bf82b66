/**
 * Where generated files and uploads live: a local folder by default, S3-compatible object storage
 * when configured. Keys are relative paths (`tasks/<task id>/<media id>.png`); the database keeps
 * the key, type and size of each file, so reads need no extra lookup.
 */
export interface ByteRange {
  /** Inclusive, as in HTTP ranges. */
  start: number;
  end: number;
}

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The bytes of a stored file (or of a range of it); null when there is no such file. */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null>;
  /** Removing a file that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/** Reads a whole stored file into memory (engine inputs, b64_json answers). */
export async function readAll(storage: MediaStorage, key: string): Promise<Uint8Array | null> {
  const stream = await storage.read(key);
  if (!stream) return null;
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Keys are made by the server, but a stray `..` must never reach a file system. */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`bad storage key ${JSON.stringify(key)}`);
  }
  return key;
}
