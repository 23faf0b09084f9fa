/** The checkout capability's registration: its service's composer, its tRPC procedures, REST routes and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeCheckoutService } from './composition.js';
import { checkoutRouter } from './trpc.js';
import { checkoutRestRoutes } from './rest.js';
import { checkoutV1Routes } from './v1-routes.js';

export const checkoutModule = apiModule({
  name: 'checkout',
  compose: composeCheckoutService,
  trpc: router({ checkout: checkoutRouter }),
  rest: (createContext) => checkoutRestRoutes(createContext),
  v1: checkoutV1Routes,
});
