/** The refunds capability's registration: its service's composer, its tRPC procedures and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeRefundsService } from './composition.js';
import { refundsRouter } from './trpc.js';
import { refundV1Routes } from './v1-routes.js';

export const refundsModule = apiModule({
  name: 'refunds',
  compose: composeRefundsService,
  trpc: router({ refunds: refundsRouter }),
  v1: refundV1Routes,
});
