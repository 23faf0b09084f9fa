/** The shopper's history export's registration: its service's composer and its REST route (ADR 068, ADR 073, ADR 091). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeHistoryExportService } from './composition.js';
import { historyExportRestRoutes } from './rest.js';

export const historyExportModule = apiModule({
  name: 'history-export',
  compose: composeHistoryExportService,
  trpc: router({}),
  rest: (createContext) => historyExportRestRoutes(createContext),
});
