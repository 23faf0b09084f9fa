/** The identity capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { identityRouter } from './trpc.js';
import { identityRestRoutes } from './rest.js';

export const identityModule = apiModule({
  name: 'identity',
  trpc: router({ identity: identityRouter }),
  rest: (createContext) => identityRestRoutes(createContext),
});
