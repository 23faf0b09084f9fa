/** The merchant keys capability's registration (API Direct in the spec): its service's composer, its tRPC procedures, REST routes and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeMerchantKeysService } from './composition.js';
import { merchantKeysRouter } from './trpc.js';
import { merchantKeysRestRoutes } from './rest.js';
import { merchantKeysV1Routes } from './v1-routes.js';

export const merchantKeysModule = apiModule({
  name: 'merchant-keys',
  compose: composeMerchantKeysService,
  // The web app and the spec call it API Direct: its tRPC and REST paths keep that name.
  trpc: router({ direct: merchantKeysRouter }),
  rest: (createContext) => merchantKeysRestRoutes(createContext),
  v1: merchantKeysV1Routes,
});
