/** The contact capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeContactService } from './composition.js';
import { contactRouter } from './trpc.js';
import { contactRestRoutes } from './rest.js';

export const contactModule = apiModule({
  name: 'contact',
  compose: composeContactService,
  trpc: router({ contact: contactRouter }),
  rest: (createContext) => contactRestRoutes(createContext),
});
