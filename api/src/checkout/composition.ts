/** The checkout service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { configuredCheckoutLookupLimits } from './lookup-limits.js';
import { createCheckoutService } from './service.js';

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
