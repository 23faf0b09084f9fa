/** The identity capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeIdentityService } from './composition.js';
import { identityRouter } from './trpc.js';
import { identityRestRoutes } from './rest.js';

export const identityModule = apiModule({
  name: 'identity',
  compose: composeIdentityService,
  trpc: router({ identity: identityRouter }),
  rest: (createContext) => identityRestRoutes(createContext),
});
