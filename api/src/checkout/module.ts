/** The checkout capability's registration: its tRPC procedures, REST routes and /api/v1 operations (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { checkoutRouter } from './trpc.js';
import { checkoutRestRoutes } from './rest.js';
import { checkoutV1Routes } from './v1-routes.js';

export const checkoutModule = apiModule({
  name: 'checkout',
  trpc: router({ checkout: checkoutRouter }),
  rest: (createContext) => checkoutRestRoutes(createContext),
  v1: checkoutV1Routes,
});
