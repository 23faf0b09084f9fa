/** The receipts service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createReceiptsService, type ReceiptsService } from './service.js';

// Every request's context carries it as ctx.receipts.
declare module '../http/context.js' {
  interface ApiServices {
    receipts: ReceiptsService;
  }
}

export const composeReceiptsService = ({ redis, store, config }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  receipts: createReceiptsService({
    redis,
    store,
    company: config.COMPANY_NAME,
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});
