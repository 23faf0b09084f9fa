/** The payouts capability's registration: its service's composer and its /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composePayoutsService } from './composition.js';
import { payoutV1Routes } from './v1-routes.js';

export const payoutsModule = apiModule({
  name: 'payouts',
  compose: composePayoutsService,
  // The web app reads payouts through the wallet's procedures; merchants pay out through /api/v1.
  trpc: router({}),
  v1: payoutV1Routes,
});
