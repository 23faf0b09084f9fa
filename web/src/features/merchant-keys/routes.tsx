/** The API Direct page's protected route: its own chunk, loaded through react-router's `lazy`. */
import type { RouteObject } from 'react-router';

export const merchantKeysRoutes: RouteObject[] = [
  { path: '/api-direct', lazy: async () => ({ Component: (await import('./ApiDirectPage.js')).default }) },
];
