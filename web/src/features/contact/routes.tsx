/** The contact and support pages' protected routes (spec section 2): each its own chunk. */
import type { RouteObject } from 'react-router';

export const contactRoutes: RouteObject[] = [
  { path: '/contact', lazy: async () => ({ Component: (await import('./ContactPage.js')).ContactPage }) },
  { path: '/support', lazy: async () => ({ Component: (await import('./ContactPage.js')).SupportPage }) },
];
