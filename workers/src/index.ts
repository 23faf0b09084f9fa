/**
 * @quern/workers: the dispatcher (log -> jobs), the e-mail, settlement, deposit-confirmation,
 * purchase (capture, credit, receipt) and subscription (renewal, e-mails, price-change) workers,
 * the purchase sweep, the deposit watcher.
 */
export { startDispatcher, type Dispatcher, type DispatcherStatus, type StartDispatcherOptions } from './dispatcher.js';
export {
  startWorkers,
  type PurchaseWorkersOptions,
  type StartWorkersOptions,
  type WorkersHandle,
  type WorkersStatus,
} from './workers.js';
export type { OpenPurchaseRange, OpenPurchases, PurchaseSweepStatus } from './purchase-sweep/sweep.js';
export { dispatchRules } from './dispatch/rules.js';
export type { DispatchRule } from './job/dispatch-rule.js';
export { welcomeEmailRule } from './welcome-email/rules.js';
export { passwordResetEmailRule } from './password-reset-email/rules.js';
export { settlementRule } from './settlement/rules.js';
export { depositConfirmationRule } from './deposits/rules.js';
export { purchaseCaptureRule } from './purchase-capture/rules.js';
export { purchaseCreditRule } from './purchase-credit/rules.js';
export { purchaseReceiptEmailRule } from './purchase-receipt-email/rules.js';
export {
  DEPOSIT_CURSOR_KEY,
  startDepositWatcher,
  type DepositWatcher,
  type DepositWatcherStatus,
  type StartDepositWatcherOptions,
} from './deposits/watcher.js';
export { DEPOSIT_CONFIRMATION_QUEUE, depositConfirmationJobId } from './deposits/payload.js';
export { SETTLEMENT_QUEUE, settlementJobId } from './settlement/payload.js';
export { PURCHASE_CAPTURE_QUEUE, purchaseCaptureJobId } from './purchase-capture/payload.js';
export { PURCHASE_CREDIT_QUEUE, purchaseCreditJobId } from './purchase-credit/payload.js';
export { PURCHASE_RECEIPT_EMAIL_QUEUE, purchaseReceiptEmailJobId } from './purchase-receipt-email/payload.js';
export { DEFAULT_QUEUE_PREFIX, PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from './jobs.js';
export { WEBHOOK_DELIVERY_QUEUE, webhookDeliveryJobId } from './webhook-delivery/payload.js';
export { WEBHOOK_FANOUT_QUEUE } from './webhook-fanout/payload.js';
export type { WebhookWorkerOptions } from './workers.js';
export type { PlanSubscriptions } from './plan-price-notice/job.js';
export { PLAN_PRICE_NOTICE_QUEUE, planPriceNoticeJobId } from './plan-price-notice/payload.js';
export { SUBSCRIPTION_EMAIL_QUEUE, subscriptionEmailJobId } from './subscription-email/payload.js';
export { SUBSCRIPTION_RENEWAL_QUEUE, subscriptionRenewalJobId } from './subscription-renewal/payload.js';
export { planPriceNoticeRule } from './plan-price-notice/rules.js';
export { subscriptionEmailRules } from './subscription-email/rules.js';
export { subscriptionRenewalRules } from './subscription-renewal/rules.js';
export { ALL_QUEUES } from './queues.js';
export type { WebhookDeliveryOutcomeLabel } from './webhook-delivery/job.js';
export { webhookSourceOf } from './webhook-fanout/job.js';
export type { WebhookReportDeps } from './webhook-fanout/source.js';
