/** The payments capability's registration: its service's composer, its tRPC procedures, REST routes and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composePaymentsService } from './composition.js';
import { paymentsRouter } from './trpc.js';
import { paymentsRestRoutes } from './rest.js';
import { paymentsV1Routes } from './v1-routes.js';

export const paymentsModule = apiModule({
  name: 'payments',
  compose: composePaymentsService,
  trpc: router({ payments: paymentsRouter }),
  rest: (createContext) => paymentsRestRoutes(createContext),
  v1: paymentsV1Routes,
});
