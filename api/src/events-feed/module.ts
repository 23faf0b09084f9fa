/** The events feed's registration: its service's composer and its /api/v1 operations (ADR 068, ADR 073, ADR 088). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeEventsFeedService } from './composition.js';
import { eventsFeedV1Routes } from './v1-routes.js';

export const eventsFeedModule = apiModule({
  name: 'events-feed',
  compose: composeEventsFeedService,
  trpc: router({}),
  v1: eventsFeedV1Routes,
});
