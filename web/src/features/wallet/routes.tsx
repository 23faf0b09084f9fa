/**
 * The wallet's protected routes besides /account (which the shell declares itself). Each page
 * is its own chunk, loaded through react-router's `lazy`, which the shell resolves.
 */
import type { RouteObject } from 'react-router';

export const walletRoutes: RouteObject[] = [
  { path: '/millix/send', lazy: async () => ({ Component: (await import('./SendPage.js')).default }) },
];
