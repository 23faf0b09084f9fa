/**
 * The webhook fan-out job (ADR 035): one source event (a checkout paid, a refund, a payout's
 * transfer posted, a subscription's start, renewal, failed charge or cancellation) becomes one delivery per endpoint of its merchant that wants that type and
 * existed before the event. Idempotent through the log: the fan-out's marker stream and the
 * delivery streams are opened with 'no_stream' in one append, so a second run appends nothing.
 */
import type { Clock, EventStore, QuernMode, RecordedEvent } from '@quern/core';
import { merchantOrderOf, toCheckoutEvent } from '@quern/core/checkout';
import { payoutIdOfTransfer, payoutStream, toPayoutEvent } from '@quern/core/payouts';
import { readCheckoutOrder, toRefundEvent } from '@quern/core/refunds';
import { fanOutWebhook, PAYOUT_TO_PLACEHOLDER, payoutObjectOf, refundObjectOf, type WebhookSource } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import { webhookFanOutPayload } from './payload.js';
import { subscriptionWebhookSource } from './subscription-source.js';

export interface WebhookFanOutDeps {
  store: EventStore;
  clock: Clock;
  /** QUERN_MODE: each body's `livemode` (ADR 050). */
  mode: QuernMode;
}

/** The webhook a source event stands for, or undefined when it reports nothing (not a payout's transfer). */
export async function webhookSourceOf(store: EventStore, recorded: RecordedEvent): Promise<WebhookSource | undefined> {
  const event = { streamId: recorded.streamId, revision: recorded.revision, position: recorded.position };
  if (recorded.type === 'CheckoutPaid') {
    const paid = toCheckoutEvent(recorded);
    if (!paid) throw new UnrecoverableError(`Malformed CheckoutPaid at ${recorded.streamId}`);
    // The order as it was at this CheckoutPaid: a fan-out that runs after a refund still describes the payment as made (ADR 071).
    const view = await readCheckoutOrder({ store }, paid.data.orderId, { asOfRevision: recorded.revision });
    if (!view) throw new UnrecoverableError(`Order ${paid.data.orderId} is not in its checkout stream`);
    return {
      event,
      merchantUserId: paid.data.merchantUserId,
      webhook: { type: 'order.paid', data: merchantOrderOf(view) },
      occurredAt: paid.data.paidAt,
    };
  }
  if (recorded.type === 'CheckoutRefunded') {
    const refunded = toRefundEvent(recorded);
    if (!refunded) throw new UnrecoverableError(`Malformed CheckoutRefunded at ${recorded.streamId}`);
    const { data } = refunded;
    return {
      event,
      merchantUserId: data.merchantUserId,
      webhook: { type: 'refund.succeeded', data: refundObjectOf(data) },
      occurredAt: data.refundedAt,
    };
  }
  if (recorded.type === 'TransferPosted') {
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
      event,
      merchantUserId: data.merchantUserId,
      webhook: { type: 'payout.completed', data: payoutObjectOf(payee ? { ...data, to: PAYOUT_TO_PLACEHOLDER } : data) },
      occurredAt: recorded.recordedAt,
      ...(payee ? { payout: { payeeUserId: payee, to: data.to } } : {}),
    };
  }
  return subscriptionWebhookSource(store, recorded);
}

export async function fanOutWebhookJob(data: unknown, deps: WebhookFanOutDeps): Promise<{ deliveries: number }> {
  const payload = parsePayload(webhookFanOutPayload, data);
  const [recorded] = await deps.store.readStream(payload.streamId, { fromRevision: BigInt(payload.revision), maxCount: 1 });
  if (!recorded || recorded.revision !== BigInt(payload.revision))
    throw new UnrecoverableError(`No event at ${payload.streamId}@${payload.revision}`);
  const source = await webhookSourceOf(deps.store, recorded);
  if (!source) return { deliveries: 0 };
  return { deliveries: (await fanOutWebhook(deps, source)).length };
}
