/** The direct capability's registration: its tRPC procedures, REST routes and /api/v1 operations (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { directRouter } from './trpc.js';
import { directRestRoutes } from './rest.js';
import { directV1Routes } from './v1-routes.js';

export const directModule = apiModule({
  name: 'direct',
  trpc: router({ direct: directRouter }),
  rest: (createContext) => directRestRoutes(createContext),
  v1: directV1Routes,
});
