/** The purchases service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { webhookLimiter } from './paypal.js';
import { createPurchaseService } from './service.js';

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
