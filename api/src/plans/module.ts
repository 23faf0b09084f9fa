/** The plans capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composePlansService } from './composition.js';
import { plansRouter } from './trpc.js';
import { planRestRoutes } from './rest.js';

export const plansModule = apiModule({
  name: 'plans',
  compose: composePlansService,
  trpc: router({ plans: plansRouter }),
  rest: (createContext) => planRestRoutes(createContext),
});
