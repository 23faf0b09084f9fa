/** The purchases capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composePurchasesService } from './composition.js';
import { purchasesRouter } from './trpc.js';
import { purchaseRestRoutes } from './rest.js';

export const purchasesModule = apiModule({
  name: 'purchases',
  compose: composePurchasesService,
  trpc: router({ purchases: purchasesRouter }),
  rest: (createContext) => purchaseRestRoutes(createContext),
});
