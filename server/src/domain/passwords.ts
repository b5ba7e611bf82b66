import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** The package declares this as an ambient const enum, which type stripping cannot inline. */
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane): memory-hard, so guessing on GPUs is
 * expensive, and quick enough (~30 ms here) for a login. Parameters live in each hash, so raising
 * them later still verifies old hashes.
 */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
/** Spends a verification's time when there is no account, so timing does not reveal which emails exist. */
export async function verifyNothing(password: string): Promise<void> {
  dummy ??= hashPassword('atelier-no-such-account');
  await verifyPassword(await dummy, password);
}
