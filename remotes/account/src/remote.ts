export const REMOTE_NAME = 'account';
export const NAMESPACE = 'account';
/** Baked in at build time by rsbuild.shared.ts, so a release can carry its own version. */
export const REMOTE_VERSION: string = process.env.ATELIER_REMOTE_VERSION ?? '0.0.0';
