/** The plans capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { plansRouter } from './trpc.js';
import { planRestRoutes } from './rest.js';

export const plansModule = apiModule({
  name: 'plans',
  trpc: router({ plans: plansRouter }),
  rest: (createContext) => planRestRoutes(createContext),
});
