/** The seed's constants for the update notice (section 9) and the names the browser stores. */

/** "Version check interval: 60 minutes." */
export const VERSION_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** "Page-reload guard time-to-live: 10 seconds." */
export const RELOAD_GUARD_MS = 10_000;
/** The version file the deployment writes (`{ "timestamp": <ms> }`), asked with `?t=<now>`. */
export const VERSION_URL = '/version.json';
/** localStorage: the last known version timestamp (seed: "app_version", default 0). */
export const APP_VERSION_KEY = 'app_version';
/** sessionStorage: when this tab last reloaded itself for an update. */
export const RELOAD_GUARD_KEY = 'atelier:update-reload-at';

/**
 * Test hook: a page may set `window.__ATELIER_VERSION_CHECK_MS__` (a positive number of
 * milliseconds) before the shell starts, e.g. with Playwright's `page.addInitScript`, to run the
 * version check more often than hourly. Only the e2e tests use it; nothing in the product sets it.
 */
export const VERSION_CHECK_OVERRIDE = '__ATELIER_VERSION_CHECK_MS__';

declare global {
  interface Window {
    __ATELIER_VERSION_CHECK_MS__?: unknown;
  }
}

export function versionCheckInterval(win: Pick<Window, typeof VERSION_CHECK_OVERRIDE> | undefined): number {
  const override = win?.[VERSION_CHECK_OVERRIDE];
  return typeof override === 'number' && Number.isFinite(override) && override > 0 ? override : VERSION_CHECK_INTERVAL_MS;
}
