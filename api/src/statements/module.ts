/** The statements capability's registration (ADR 068, ADR 073, ADR 090): its service, its REST routes and its /api/v1 operation. */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeStatementsService } from './composition.js';
import { statementsRestRoutes } from './rest.js';
import { statementsV1Routes } from './v1-routes.js';

export const statementsModule = apiModule({
  name: 'statements',
  compose: composeStatementsService,
  trpc: router({}),
  rest: (createContext) => statementsRestRoutes(createContext),
  v1: statementsV1Routes,
});
