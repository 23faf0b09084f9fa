/** The profile page's protected route: its own chunk, loaded through react-router's `lazy`. */
import type { RouteObject } from 'react-router';

export const profileRoutes: RouteObject[] = [
  { path: '/profile', lazy: async () => ({ Component: (await import('./ProfilePage.js')).default }) },
];
