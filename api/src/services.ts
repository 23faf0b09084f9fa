/**
 * Every api capability's services, in the order they are built: a capability sees the services
 * listed before it (the wallet's first, since the others note and await their writes through it).
 * A new capability with a service adds its composition.ts and one line here; the request context
 * (http/context.ts) and the app's dependencies (http/app.ts) take their service fields from this
 * list (ADR 073). Its routes are listed in modules.ts (ADR 068).
 */
import { ServiceList, type ServicesOf } from './composition.js';
import { composeWalletService } from './wallet/composition.js';
import { composeIdentityService } from './identity/composition.js';
import { composePurchasesService } from './purchases/composition.js';
import { composeMerchantKeysService } from './merchant-keys/composition.js';
import { composeCheckoutService } from './checkout/composition.js';
import { composePaymentsService } from './payments/composition.js';
import { composeRefundsService } from './refunds/composition.js';
import { composePayoutsService } from './payouts/composition.js';
import { composeWebhooksService } from './webhooks/composition.js';
import { composePlansService } from './plans/composition.js';
import { composeSubscriptionsService } from './subscriptions/composition.js';
import { composeContactService } from './contact/composition.js';

export const apiServices = ServiceList.empty
  .with(composeWalletService)
  .with(composeIdentityService)
  .with(composePurchasesService)
  .with(composeMerchantKeysService)
  .with(composeCheckoutService)
  .with(composePaymentsService)
  .with(composeRefundsService)
  .with(composePayoutsService)
  .with(composeWebhooksService)
  .with(composePlansService)
  .with(composeSubscriptionsService)
  .with(composeContactService);

/** Every capability's service, by the name procedures and routes read it under (`ctx.wallet`). */
export type ApiServices = ServicesOf<typeof apiServices>;
