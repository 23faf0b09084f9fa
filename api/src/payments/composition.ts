/** The payments service (the merchant's received payments), from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createPaymentsService, type PaymentsService } from './service.js';

// Every request's context carries it as ctx.payments.
declare module '../http/context.js' {
  interface ApiServices {
    payments: PaymentsService;
  }
}

export const composePaymentsService = ({ redis, ledger }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  payments: createPaymentsService({
    redis,
    // The ledger's log and clock: as_of is compared with the times the ledger stamps on its events.
    store: ledger.store,
    clock: ledger.clock,
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});
