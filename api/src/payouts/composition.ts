/** The payouts service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createPayoutService, type PayoutService } from './service.js';

// Every request's context carries it as ctx.payouts.
declare module '../http/context.js' {
  interface ApiServices {
    payouts: PayoutService;
  }
}

export const composePayoutsService = ({ ledger }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  payouts: createPayoutService({ core: ledger, noteWrite: (userId, position) => wallet.noteWrite(userId, position) }),
});
