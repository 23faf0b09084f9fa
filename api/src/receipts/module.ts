/** The shopper's receipts' registration: their service's composer, the page's procedure and the PDF route (ADR 068, ADR 073, ADR 091). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeReceiptsService } from './composition.js';
import { receiptsRestRoutes } from './rest.js';
import { receiptsRouter } from './trpc.js';

export const receiptsModule = apiModule({
  name: 'receipts',
  compose: composeReceiptsService,
  trpc: router({ receipts: receiptsRouter }),
  rest: (createContext) => receiptsRestRoutes(createContext),
});
