import { join } from 'node:path';
import { createLocalStorage } from './localStorage.ts';
import type { MediaStorage } from './mediaStorage.ts';
import { createS3Storage, type S3Settings } from './s3Storage.ts';

export type { ByteRange, MediaStorage } from './mediaStorage.ts';
export { readAll } from './mediaStorage.ts';
export type { S3Settings } from './s3Storage.ts';

/** S3 when configured, else `<data>/media`. */
export function createMediaStorage(options: { dataDir: string; s3: S3Settings | null }): MediaStorage {
  return options.s3 ? createS3Storage(options.s3) : createLocalStorage(mediaDirIn(options.dataDir));
}

export function mediaDirIn(dataDir: string): string {
  return join(dataDir, 'media');
}
