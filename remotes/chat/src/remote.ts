export const REMOTE_NAME = 'chat';
export const NAMESPACE = 'chat';
/** Baked in at build time by rsbuild.shared.ts, so a release can carry its own version. */
export const REMOTE_VERSION: string = process.env.ATELIER_REMOTE_VERSION ?? '0.0.0';
