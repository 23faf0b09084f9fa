/** The subscriptions service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createSubscriptionService, type SubscriptionService } from './service.js';

// Every request's context carries it as ctx.subscriptions.
declare module '../http/context.js' {
  interface ApiServices {
    subscriptions: SubscriptionService;
  }
}

export const composeSubscriptionsService = ({ ledger, redis }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  subscriptions: createSubscriptionService({
    core: ledger,
    redis,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});
