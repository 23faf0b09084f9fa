/** The receipt's protected route (ADR 091): its own chunk, loaded through react-router's `lazy`. */
import type { RouteObject } from 'react-router';

export const receiptsRoutes: RouteObject[] = [
  { path: '/receipts/:id', lazy: async () => ({ Component: (await import('./ReceiptPage.js')).default }) },
];
