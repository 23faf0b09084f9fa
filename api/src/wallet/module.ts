/** The wallet capability's registration: its tRPC procedures and REST routes (ADR 068). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { walletRouter } from './trpc.js';
import { walletRestRoutes } from './rest.js';

export const walletModule = apiModule({
  name: 'wallet',
  trpc: router({ wallet: walletRouter }),
  rest: (createContext, { allowedOrigins }) => walletRestRoutes(createContext, allowedOrigins),
});
