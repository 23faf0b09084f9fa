/**
 * The Buy page's protected route. The page is its own chunk (with PayPal's React library in it),
 * loaded through react-router's `lazy`, which the shell resolves.
 */
import type { RouteObject } from 'react-router';

export const purchasesRoutes: RouteObject[] = [
  { path: '/millix/buy', lazy: async () => ({ Component: (await import('./BuyPage.js')).default }) },
];
