/** The web app's API: one router per capability, each calling the same handlers as REST. */
import { router } from './init.js';
import { checkoutRouter } from '../checkout/trpc.js';
import { contactRouter } from '../contact/trpc.js';
import { directRouter } from '../direct/trpc.js';
import { identityRouter } from '../identity/trpc.js';
import { paymentsRouter } from '../payments/trpc.js';
import { plansRouter } from '../plans/trpc.js';
import { subscriptionsRouter } from '../subscriptions/trpc.js';
import { purchasesRouter } from '../purchases/trpc.js';
import { refundsRouter } from '../refunds/trpc.js';
import { walletRouter } from '../wallet/trpc.js';
import { webhooksRouter } from '../webhooks/trpc.js';

export const appRouter = router({
  identity: identityRouter,
  wallet: walletRouter,
  purchases: purchasesRouter,
  checkout: checkoutRouter,
  refunds: refundsRouter,
  direct: directRouter,
  webhooks: webhooksRouter,
  payments: paymentsRouter,
  plans: plansRouter,
  subscriptions: subscriptionsRouter,
  contact: contactRouter,
});

export type AppRouter = typeof appRouter;
