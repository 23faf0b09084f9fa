/**
 * The reader of each webhook type in the catalogue (core/src/webhooks/catalogue.ts). The map is
 * keyed by the catalogue's types, so a type added there fails to compile until it has a source.
 * Each reader describes the object as it was at its event (ADR 071), so a late fan-out still
 * reports that moment.
 */
import { merchantOrderOf, toCheckoutEvent } from '@quern/core/checkout';
import { payoutIdOfTransfer, payoutStream, toPayoutEvent } from '@quern/core/payouts';
import { readCheckoutOrder, toRefundEvent } from '@quern/core/refunds';
import { PAYOUT_TO_PLACEHOLDER, payoutObjectOf, refundObjectOf, type WebhookEventType } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import type { WebhookReportReader } from './source.js';
import { invoiceWebhookReport } from './invoice-source.js';
import { subscriptionWebhookReport } from './subscription-source.js';

const orderPaid: WebhookReportReader<'order.paid'> = async ({ store }, recorded) => {
  const paid = toCheckoutEvent(recorded);
  if (!paid) throw new UnrecoverableError(`Malformed CheckoutPaid at ${recorded.streamId}`);
  // The order as it was at this CheckoutPaid: a fan-out that runs after a refund still describes the payment as made (ADR 071).
  const view = await readCheckoutOrder({ store }, paid.data.orderId, { asOfRevision: recorded.revision });
  if (!view) throw new UnrecoverableError(`Order ${paid.data.orderId} is not in its checkout stream`);
  return { merchantUserId: paid.data.merchantUserId, data: merchantOrderOf(view), occurredAt: paid.data.paidAt };
};

const refundSucceeded: WebhookReportReader<'refund.succeeded'> = async (_deps, recorded) => {
  const refunded = toRefundEvent(recorded);
  if (!refunded) throw new UnrecoverableError(`Malformed CheckoutRefunded at ${recorded.streamId}`);
  const { data } = refunded;
  return { merchantUserId: data.merchantUserId, data: refundObjectOf(data), occurredAt: data.refundedAt };
};

const payoutCompleted: WebhookReportReader<'payout.completed'> = async ({ store }, recorded) => {
  const payoutId = payoutIdOfTransfer(String(recorded.data.transferId ?? ''));
  if (!payoutId) return undefined;
  const [first] = await store.readStream(payoutStream(payoutId), { maxCount: 1 });
  const requested = first && toPayoutEvent(first);
  if (!requested) throw new UnrecoverableError(`Payout ${payoutId} has no PayoutRequested`);
  const { data } = requested;
  // A Quern payee's recipient (an e-mail, perhaps) is its personal data: it is stored sealed
  // beside the body, not in it, so deleting the payee erases it from the delivery too.
  const payee = data.toWalletId;
  return {
    merchantUserId: data.merchantUserId,
    data: payoutObjectOf(payee ? { ...data, to: PAYOUT_TO_PLACEHOLDER } : data),
    occurredAt: recorded.recordedAt,
    ...(payee ? { payout: { payeeUserId: payee, to: data.to } } : {}),
  };
};

export const WEBHOOK_REPORT_READERS: { [K in WebhookEventType]: WebhookReportReader<K> } = {
  'order.paid': orderPaid,
  'refund.succeeded': refundSucceeded,
  'payout.completed': payoutCompleted,
  'subscription.created': subscriptionWebhookReport,
  'subscription.renewed': subscriptionWebhookReport,
  'subscription.past_due': subscriptionWebhookReport,
  'subscription.cancelled': subscriptionWebhookReport,
  'invoice.processing': invoiceWebhookReport,
  'invoice.partially_paid': invoiceWebhookReport,
  'invoice.paid': invoiceWebhookReport,
  'invoice.expired': invoiceWebhookReport,
};
