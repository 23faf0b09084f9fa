/** The payments service (the merchant's received payments), from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createPaymentsService } from './service.js';

export const composePaymentsService = ({ redis }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  payments: createPaymentsService({ redis, awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId) }),
});
