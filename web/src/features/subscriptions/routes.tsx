/** The subscription pages' protected routes (issue 13), each its own chunk, loaded through react-router's `lazy`. */
import type { RouteObject } from 'react-router';

export const subscriptionsRoutes: RouteObject[] = [
  { path: '/subscriptions/all', lazy: async () => ({ Component: (await import('./SubscriptionsPage.js')).default }) },
  { path: '/subscriptions/:id', lazy: async () => ({ Component: (await import('./SubscriptionPage.js')).default }) },
];
