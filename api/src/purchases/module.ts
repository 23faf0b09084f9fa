/** The purchases capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { purchasesRouter } from './trpc.js';
import { purchaseRestRoutes } from './rest.js';

export const purchasesModule = apiModule({
  name: 'purchases',
  trpc: router({ purchases: purchasesRouter }),
  rest: (createContext) => purchaseRestRoutes(createContext),
});
