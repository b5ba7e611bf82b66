/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  gallery: 'dashboard/image',
  textToImage: 'dashboard/image/create/text-to-image',
  imageToImage: 'dashboard/image/create/image-to-image',
  detail: 'dashboard/image/:id',
} as const;

export type PageKey = keyof typeof ROUTES;
