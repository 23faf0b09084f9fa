/** The checkout service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { configuredCheckoutLookupLimits } from './lookup-limits.js';
import { createCheckoutService, type CheckoutService } from './service.js';

// Every request's context carries it as ctx.checkout.
declare module '../http/context.js' {
  interface ApiServices {
    checkout: CheckoutService;
  }
}

export const composeCheckoutService = (
  { config, ledger, redis, appSecret }: CompositionContext,
  { wallet }: { wallet: WalletService },
) => ({
  checkout: createCheckoutService({
    core: ledger,
    appSecret,
    lookupLimits: configuredCheckoutLookupLimits(redis, config),
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
  }),
});
