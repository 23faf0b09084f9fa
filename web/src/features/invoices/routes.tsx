/** The hosted invoice page's route: open to all (anyone with the link pays), its own chunk. */
import type { RouteObject } from 'react-router';

export const invoicesRoutes: RouteObject[] = [
  { path: '/i/:id', lazy: async () => ({ Component: (await import('./InvoicePage.js')).default }) },
];
