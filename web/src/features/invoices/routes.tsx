/** The hosted invoice page's route and the payer's refund claim link: open to all (the link is the credential), each its own chunk. */
import type { RouteObject } from 'react-router';

export const invoicesRoutes: RouteObject[] = [
  { path: '/i/:id', lazy: async () => ({ Component: (await import('./InvoicePage.js')).default }) },
  { path: '/refund/:refundId', lazy: async () => ({ Component: (await import('./RefundClaimPage.js')).default }) },
];
