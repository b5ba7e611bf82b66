/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  keys: 'dashboard/api',
} as const;

export type PageKey = keyof typeof ROUTES;
