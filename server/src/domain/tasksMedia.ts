/**
 * Who may fetch a task's file: its owner; anyone, for an output of a finished public task; the
 * holder of the task's share link; or the holder of a signed, expiring link (the business API's
 * `url` answers, which a program fetches without a session). Everyone else is told it does not
 * exist, so private work cannot even be probed for.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { serverSecrets, type MediaRow, type TaskRow } from '../db/schema.ts';
import { safeEqual } from './secrets.ts';

export interface MediaViewer {
  userId: string | null;
  shareToken?: string | undefined;
  /** `expires` (unix seconds) and `signature` from a signed link. */
  expires?: string | undefined;
  signature?: string | undefined;
}

const SIGNING_SECRET = 'media-link-key';
const keys = new WeakMap<Database, Promise<Buffer>>();

/** The key every node signs media links with: made once, kept in the database. */
function signingKey(db: Database): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = (async () => {
      await db.insert(serverSecrets).values({ name: SIGNING_SECRET, value: randomBytes(32).toString('base64') }).onConflictDoNothing();
      const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, SIGNING_SECRET));
      return Buffer.from(row!.value, 'base64');
    })();
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const sign = (key: Buffer, mediaId: string, expires: number) => createHmac('sha256', key).update(`${mediaId}.${expires}`).digest('base64url');

/** `?expires=…&signature=…` for a link that works without a session until `expiresAt`. */
export async function signedMediaQuery(db: Database, mediaId: string, expiresAt: Date): Promise<string> {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `expires=${expires}&signature=${sign(await signingKey(db), mediaId, expires)}`;
}

async function validSignature(db: Database, mediaId: string, viewer: MediaViewer): Promise<boolean> {
  if (!viewer.expires || !viewer.signature || !/^\d{1,12}$/.test(viewer.expires)) return false;
  const expires = Number(viewer.expires);
  if (expires * 1000 < Date.now()) return false;
  return safeEqual(sign(await signingKey(db), mediaId, expires), viewer.signature);
}

export async function canSeeMedia(db: Database, file: MediaRow, task: TaskRow, viewer: MediaViewer): Promise<boolean> {
  if (viewer.userId && viewer.userId === task.userId) return true;
  // An uploaded picture is its owner's alone.
  if (file.role !== 'output') return false;
  if (task.visibility === 'public' && task.status === 'completed') return true;
  if (viewer.shareToken && task.shareToken && safeEqual(viewer.shareToken, task.shareToken)) return true;
  return validSignature(db, file.id, viewer);
}

/** Parses one `bytes=` range against a file's size; null: the whole file; 'unsatisfiable': 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, other units or garbage: answer with the whole file, as HTTP allows.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
