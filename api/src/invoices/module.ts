/** The invoices capability's registration: its service's composer, its tRPC procedures, REST download and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeInvoicesService } from './composition.js';
import { invoicesRestRoutes } from './rest.js';
import { invoicesRouter } from './trpc.js';
import { invoiceV1Routes } from './v1-routes.js';

export const invoicesModule = apiModule({
  name: 'invoices',
  compose: composeInvoicesService,
  trpc: router({ invoices: invoicesRouter }),
  rest: (createContext) => invoicesRestRoutes(createContext),
  v1: invoiceV1Routes,
});
