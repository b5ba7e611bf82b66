/** Every path this remote serves, relative to the language root. No path is typed twice. */
export const ROUTES = {
  login: 'auth/login',
  register: 'auth/register',
  callback: 'auth/callback',
  updatePassword: 'auth/update-password',
  admin: 'user/admin',
  orders: 'user/orders',
  profile: 'user/profile',
  dashboard: 'dashboard',
  dashboardHome: 'dashboard/home',
} as const;

export type PageKey = keyof typeof ROUTES;
