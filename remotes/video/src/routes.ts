/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  gallery: 'dashboard/video',
  create: 'dashboard/video/create',
  detail: 'dashboard/video/:id',
} as const;

export type PageKey = keyof typeof ROUTES;
