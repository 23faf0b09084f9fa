/** The contact capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { contactRouter } from './trpc.js';
import { contactRestRoutes } from './rest.js';

export const contactModule = apiModule({
  name: 'contact',
  trpc: router({ contact: contactRouter }),
  rest: (createContext) => contactRestRoutes(createContext),
});
