/** The refunds service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createRefundService, type RefundService } from './service.js';

// Every request's context carries it as ctx.refunds.
declare module '../http/context.js' {
  interface ApiServices {
    refunds: RefundService;
  }
}

export const composeRefundsService = ({ ledger }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  refunds: createRefundService({ core: ledger, noteWrite: (userId, position) => wallet.noteWrite(userId, position) }),
});
