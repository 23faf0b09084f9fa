/** The wallet's service, from the composition context (ADR 073); every capability listed after it may use it. */
import { configuredCheckoutLookupLimits } from '../checkout/lookup-limits.js';
import type { CompositionContext } from '../composition.js';
import { createWalletService, type WalletService } from './service.js';

// Every request's context carries it as ctx.wallet.
declare module '../http/context.js' {
  interface ApiServices {
    wallet: WalletService;
  }
}

export const composeWalletService = ({ ledger, redis, config, waitForReadModels }: CompositionContext) => ({
  wallet: createWalletService({ core: ledger, redis, lookupLimits: configuredCheckoutLookupLimits(redis, config), waitForReadModels }),
});
