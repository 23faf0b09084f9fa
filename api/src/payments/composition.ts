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

export const composePaymentsService = ({ redis }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  payments: createPaymentsService({ redis, awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId) }),
});
