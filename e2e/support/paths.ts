import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const DEPLOY_DIR = resolve(process.env.ATELIER_DEPLOY_DIR ?? join(ROOT, 'deploy'));
/** Built fixture remotes (see global-setup.ts). */
export const FIXTURES_DIR = join(ROOT, 'e2e', '.fixtures');
export const NODE = process.execPath;
