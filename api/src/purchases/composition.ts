/** The purchases service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { webhookLimiter } from './paypal.js';
import { createPurchaseService, type PurchaseService } from './service.js';

// Every request's context carries it as ctx.purchases.
declare module '../http/context.js' {
  interface ApiServices {
    purchases: PurchaseService;
  }
}

export const composePurchasesService = ({ config, ledger, redis, paypal }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  purchases: createPurchaseService({
    core: ledger,
    paypal: paypal.client,
    browser: paypal.browser,
    captureWaitMs: config.CAPTURE_WAIT_MS,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
    limitWebhooks: webhookLimiter(redis, config.PAYPAL_WEBHOOKS_PER_MINUTE),
  }),
});
