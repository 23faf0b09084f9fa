/** @quern/projections: the projection runner, rebuild, the read models and their queries. */
import type { Projection } from './types.js';
import { merchantPaymentsProjection } from './payments/projection.js';
import { purchasesProjection } from './purchases/projection.js';
import { usersProjection } from './users/projection.js';
import { walletsProjection } from './wallets/projection.js';
import { webhooksProjection } from './webhooks/projection.js';
import { subscriptionsProjection } from './subscriptions/projection.js';
import { invoicesProjection } from './invoices/projection.js';
import { walletDaysProjection } from './wallet-days/projection.js';
import { merchantEventsProjection } from './merchant-events/projection.js';

export { startProjections, type ProjectionRunner, type ProjectionRunnerStatus, type StartProjectionsOptions } from './runner.js';
export { rebuildProjections, type RebuildProjectionsOptions, type RebuildReport } from './rebuild.js';
export { DEFAULT_CHECKPOINT_KEY, type Projection } from './types.js';
export {
  completedTransactionsOf,
  countPendingSettlements,
  findHistoryEntry,
  findTransaction,
  type HistoryEntry,
  getPendingTotals,
  getPendingTransactions,
  getTransactionsPage,
  getWalletBalance,
} from './wallets/queries.js';
export {
  firstHistoryIndexFrom,
  HISTORY_RANGE_MARGIN_MS,
  HISTORY_RANGE_PAGE_MAX,
  type HistoryRangePage,
  readHistoryRange,
} from './wallets/history-range.js';
export {
  listPurchasesAwaitingCapture,
  listPurchasesAwaitingCredit,
  OPEN_PURCHASES_LIMIT_MAX,
  type OpenPurchaseRange,
} from './purchases/queries.js';
export {
  getMerchantPayment,
  listMerchantPayments,
  PAYMENT_RECORDS_READ_MAX,
  readMerchantPaymentsByTime,
  shopperUsernameOf,
} from './payments/queries.js';
export { merchantPaymentsProjection } from './payments/projection.js';

export { listWebhookDeliveryIds, type WebhookDeliveryIdPage } from './webhooks/queries.js';
export {
  allPlanIdsOfProvider,
  allSubscriptionIdsOfPlan,
  allSubscriptionIdsOfSubscriber,
  type IdPage,
  pagePlansOfProvider,
  pageSubscriptionIdsOfSubscriber,
  pageSubscriptionsOfPlan,
  type PlanSubscriptionRow,
  SUBSCRIPTION_LIST_MAX,
  subscriptionIdsOfPlanAsOf,
} from './subscriptions/queries.js';
export { subscriptionsProjection } from './subscriptions/projection.js';
export { invoicesProjection } from './invoices/projection.js';
export { INVOICE_IDS_BY_TIME_READ_MAX, listMerchantInvoiceIds, listMerchantInvoiceIdsByTime } from './invoices/queries.js';
export { getUser, findUserIdByUsername } from './users/queries.js';
export { walletDaysProjection } from './wallet-days/projection.js';
export { AS_OF_READ_PAGE, dayEndBefore, walletBalanceAsOf } from './wallet-days/balance-as-of.js';
export { walletDayEndsKey, walletDaysByDayKey, walletDaysByPositionKey } from './wallet-days/keys.js';
export { merchantEventsProjection } from './merchant-events/projection.js';
export {
  MERCHANT_EVENTS_READ_MAX,
  type MerchantEventsPage,
  merchantEventPositionAtTime,
  ReadModelsRebuildingError,
  readMerchantEvents,
} from './merchant-events/queries.js';
export type { MerchantEventRef } from './merchant-events/keys.js';

/** Every projection the app runs; order matters only for determinism, not for correctness. */
export const allProjections: readonly Projection[] = [
  usersProjection,
  walletsProjection,
  purchasesProjection,
  webhooksProjection,
  merchantPaymentsProjection,
  subscriptionsProjection,
  invoicesProjection,
  walletDaysProjection,
  merchantEventsProjection,
];
