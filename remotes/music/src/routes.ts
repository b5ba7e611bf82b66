/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  gallery: 'dashboard/music',
  create: 'dashboard/music/create',
  detail: 'dashboard/music/:id',
} as const;

export type PageKey = keyof typeof ROUTES;
