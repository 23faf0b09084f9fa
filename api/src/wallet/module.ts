/** The wallet capability's registration: its service's composer, its tRPC procedures and REST routes (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeWalletService } from './composition.js';
import { walletRouter } from './trpc.js';
import { walletRestRoutes } from './rest.js';

export const walletModule = apiModule({
  name: 'wallet',
  compose: composeWalletService,
  trpc: router({ wallet: walletRouter }),
  rest: (createContext, { allowedOrigins }) => walletRestRoutes(createContext, allowedOrigins),
});
