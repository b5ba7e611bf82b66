import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the operator command line reaches a running server: its URL and a bearer token that acts
 * as an admin. Written at start into the data folder, readable only by the server's own user
 * (mode 0600), removed at shutdown. The token changes on every start.
 */
export interface OperatorAccess {
  pid: number;
  url: string;
  token: string;
}

const accessFile = (dataDir: string) => join(dataDir, 'operator.json');

export function writeOperatorAccess(dataDir: string, access: OperatorAccess): void {
  const file = accessFile(dataDir);
  mkdirSync(dataDir, { recursive: true });
  // Removed first, so the new file is created with its mode rather than keeping an old one's.
  rmSync(file, { force: true });
  writeFileSync(file, JSON.stringify(access), { mode: 0o600 });
}

export function readOperatorAccess(dataDir: string): OperatorAccess | null {
  try {
    return JSON.parse(readFileSync(accessFile(dataDir), 'utf8')) as OperatorAccess;
  } catch {
    return null;
  }
}

export function removeOperatorAccess(dataDir: string): void {
  rmSync(accessFile(dataDir), { force: true });
}
