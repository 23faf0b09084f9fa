/** The payment link's page (ADR 084): open to all, in the app's shell, in its own chunk. */
import type { RouteObject } from 'react-router';

export const paymentLinkRoutes: RouteObject[] = [
  { path: '/pay/:slug', lazy: async () => ({ Component: (await import('./PayLinkPage.js')).default }) },
];
