/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  home: '',
  pricing: 'pricing',
  blog: 'blog',
  blogPost: 'blog/:slug',
  docs: 'docs',
  legalTerms: 'legal/terms',
  legalRefund: 'legal/refund',
  legalCookies: 'legal/cookies',
  legalPrivacy: 'legal/privacy',
} as const;

export type PageKey = keyof typeof ROUTES;
