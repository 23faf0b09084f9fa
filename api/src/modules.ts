/**
 * Every api capability, in the order their REST routes are mounted and their /api/v1 operations are
 * listed in the reference (ADR 068). A new capability adds its module.ts and one line here; the app
 * (http/app.ts), the web app's tRPC router (trpc/router.ts) and the v1 route table (v1/table.ts)
 * are built from this list. Its service is listed in services.ts (ADR 073): the routes are typed by
 * the request context those services make up, so they cannot share one list.
 */
import { identityModule } from './identity/module.js';
import { walletModule } from './wallet/module.js';
import { purchasesModule } from './purchases/module.js';
import { merchantKeysModule } from './merchant-keys/module.js';
import { checkoutModule } from './checkout/module.js';
import { paymentsModule } from './payments/module.js';
import { refundsModule } from './refunds/module.js';
import { payoutsModule } from './payouts/module.js';
import { webhooksModule } from './webhooks/module.js';
import { plansModule } from './plans/module.js';
import { subscriptionsModule } from './subscriptions/module.js';
import { contactModule } from './contact/module.js';

export const apiModules = [
  identityModule,
  walletModule,
  purchasesModule,
  merchantKeysModule,
  checkoutModule,
  paymentsModule,
  refundsModule,
  payoutsModule,
  webhooksModule,
  plansModule,
  subscriptionsModule,
  contactModule,
] as const;
