/**
 * The checkout popup's route: open to all (a visitor signs in inside it), outside the app shell
 * (a popup has no navigation or footer), in its own chunk with PayPal's React library.
 */
import type { RouteObject } from 'react-router';

export const checkoutRoutes: RouteObject[] = [
  { path: '/checkout', lazy: async () => ({ Component: (await import('./CheckoutPage.js')).default }) },
];
