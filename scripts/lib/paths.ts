import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DEPLOY_DIR = resolve(process.env.ATELIER_DEPLOY_DIR ?? join(ROOT, 'deploy'));

export interface RemotePackage {
  /** Registry name, e.g. `api-keys`. */
  name: string;
  version: string;
  dir: string;
  devPort: number;
  mounts: { path: string; layout: 'default' | 'dashboard' }[];
}

export function readRemotePackage(dir: string): RemotePackage {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string;
    atelier: { remote: string; devPort: number; mounts: RemotePackage['mounts'] };
  };
  return { name: pkg.atelier.remote, version: pkg.version, dir, devPort: pkg.atelier.devPort, mounts: pkg.atelier.mounts };
}

export function remotePackages(): RemotePackage[] {
  return readdirSync(join(ROOT, 'remotes'))
    .sort()
    .map((d) => readRemotePackage(join(ROOT, 'remotes', d)));
}

export function remotePackage(name: string): RemotePackage {
  const found = remotePackages().find((r) => r.name === name);
  if (!found) {
    throw new Error(`unknown remote "${name}"; known: ${remotePackages().map((r) => r.name).join(', ')}`);
  }
  return found;
}
