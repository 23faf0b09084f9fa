/** The payouts capability's registration: its /api/v1 operations (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { payoutV1Routes } from './v1-routes.js';

export const payoutsModule = apiModule({
  name: 'payouts',
  // The web app reads payouts through the wallet's procedures; merchants pay out through /api/v1.
  trpc: router({}),
  v1: payoutV1Routes,
});
