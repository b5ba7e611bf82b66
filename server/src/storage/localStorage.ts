import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { checkKey, type ByteRange, type MediaStorage } from './mediaStorage.ts';

/** Files under one folder (`<data>/media` by default). Writes go through a temporary file and a rename. */
export function createLocalStorage(root: string): MediaStorage {
  const pathOf = (key: string) => join(root, checkKey(key));
  return {
    kind: 'local',
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, path);
    },
    async read(key, range?: ByteRange) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        return null;
      }
      const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
