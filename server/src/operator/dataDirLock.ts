import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is one process's database: two processes opening the same folder would corrupt it. The
 * process that opens it (the server, or the operator command line when no server runs) holds
 * this lock file; a lock whose process is gone is stale and taken over.
 */
export interface LockHolder {
  pid: number;
  owner: 'server' | 'cli';
}

const lockFile = (dataDir: string) => join(dataDir, 'atelier.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockHolder(dataDir: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as LockHolder;
    return holder.pid !== process.pid && alive(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

export class DataDirBusy extends Error {
  readonly holder: LockHolder;
  constructor(dataDir: string, holder: LockHolder) {
    super(`the database in ${dataDir} is in use by ${holder.owner === 'server' ? 'a running server' : 'an operator command'} (pid ${holder.pid})`);
    this.holder = holder;
  }
}

/**
 * Takes the lock or throws DataDirBusy; returns the release function. An operator command holds
 * the lock for a moment only, so a caller waits up to `waitMs` for one to finish.
 */
export async function claimDataDir(dataDir: string, owner: LockHolder['owner'], waitMs = 30_000): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, owner } satisfies LockHolder), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = lockHolder(dataDir);
      if (!holder) {
        rmSync(file, { force: true }); // stale: its process is gone
        continue;
      }
      if (holder.owner === 'server' || Date.now() >= deadline) throw new DataDirBusy(dataDir, holder);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
