/** The subscriptions capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { subscriptionsRouter } from './trpc.js';
import { subscriptionRestRoutes } from './rest.js';

export const subscriptionsModule = apiModule({
  name: 'subscriptions',
  trpc: router({ subscriptions: subscriptionsRouter }),
  rest: (createContext) => subscriptionRestRoutes(createContext),
});
