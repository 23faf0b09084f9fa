/** The history export's service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createHistoryExportService, type HistoryExportService } from './service.js';

// Every request's context carries it as ctx.historyExport.
declare module '../http/context.js' {
  interface ApiServices {
    historyExport: HistoryExportService;
  }
}

export const composeHistoryExportService = ({ redis, store }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  historyExport: createHistoryExportService({ redis, store, awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId) }),
});
