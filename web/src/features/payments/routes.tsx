/** The payments page's protected route: its own chunk, loaded through react-router's `lazy`. */
import type { RouteObject } from 'react-router';

export const paymentsRoutes: RouteObject[] = [
  { path: '/payments', lazy: async () => ({ Component: (await import('./PaymentsPage.js')).default }) },
];
