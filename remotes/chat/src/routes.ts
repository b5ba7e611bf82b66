/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  chat: 'dashboard/chat',
} as const;

export type PageKey = keyof typeof ROUTES;
