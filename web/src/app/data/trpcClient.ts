/**
 * The one tRPC client of the web app, used through the TanStack Query bindings in app/data/. It
 * loads with the pages that fetch data, not with the home page (the startup session check is a
 * plain fetch: see features/auth/fetchSession.ts).
 */
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '@quern/api/router';

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/trpc',
      // Batched GET requests carry their inputs in the URL; this keeps them below the length
      // that proxies and browsers reliably accept, splitting a batch when needed.
      maxURLLength: 2_000,
      maxItems: 10,
      // The session cookie is httpOnly and same-origin; never send it anywhere else.
      fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
    }),
  ],
});
