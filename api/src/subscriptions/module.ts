/** The subscriptions capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeSubscriptionsService } from './composition.js';
import { subscriptionsRouter } from './trpc.js';
import { subscriptionRestRoutes } from './rest.js';

export const subscriptionsModule = apiModule({
  name: 'subscriptions',
  compose: composeSubscriptionsService,
  trpc: router({ subscriptions: subscriptionsRouter }),
  rest: (createContext) => subscriptionRestRoutes(createContext),
});
