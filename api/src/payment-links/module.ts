/** The payment links capability's registration: its service's composer, its tRPC procedures and /api/v1 operations (ADR 068, ADR 073, ADR 084). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composePaymentLinksService } from './composition.js';
import { paymentLinksRouter } from './trpc.js';
import { paymentLinkV1Routes } from './v1-routes.js';

export const paymentLinksModule = apiModule({
  name: 'paymentLinks',
  compose: composePaymentLinksService,
  trpc: router({ paymentLinks: paymentLinksRouter }),
  v1: paymentLinkV1Routes,
});
