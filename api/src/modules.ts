/**
 * Every api capability, once (ADR 068, ADR 073): its service, its tRPC procedures, its REST routes
 * and its /api/v1 operations. A new capability adds its folder and one line here. The composition
 * root builds the services in this order (a capability's composer sees the services listed before
 * it: the wallet's first, since the others note and await their writes through it); the app mounts
 * the REST routes, the web app's tRPC router (trpc/router.ts) merges the procedures and the v1 route
 * table (v1/table.ts) lists the operations in this order too, except where a line says whose routes
 * it is mounted before.
 */
import type { ApiServices } from './http/context.js';
import { ApiModuleList, type BuildsExactly, type ServicesOf } from './http/module-list.js';
import { walletModule } from './wallet/module.js';
import { identityModule } from './identity/module.js';
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
import { invoicesModule } from './invoices/module.js';
import { paymentLinksModule } from './payment-links/module.js';
import { eventsFeedModule } from './events-feed/module.js';
import { historyExportModule } from './history-export/module.js';
import { receiptsModule } from './receipts/module.js';
import { statementsModule } from './statements/module.js';

export const apiModules = ApiModuleList.empty
  .with(walletModule)
  // Its service opens wallets and awaits their writes, so it is built after the wallet's; its
  // routes have always been mounted first.
  .with(identityModule, { routesBefore: 'wallet' })
  .with(purchasesModule)
  .with(merchantKeysModule)
  .with(checkoutModule)
  .with(paymentsModule)
  .with(refundsModule)
  .with(payoutsModule)
  .with(webhooksModule)
  .with(plansModule)
  .with(subscriptionsModule)
  .with(invoicesModule)
  .with(paymentLinksModule)
  .with(eventsFeedModule)
  .with(historyExportModule)
  .with(receiptsModule)
  .with(statementsModule)
  .with(contactModule);

/**
 * Compiles only while the list builds exactly the services the capabilities' compositions declare
 * on the request context (ApiServices): a declared service whose module is not listed, or a listed
 * one that declares none, is a type error here.
 */
export const buildsEveryDeclaredService: BuildsExactly<ServicesOf<typeof apiModules>, ApiServices> = true;
