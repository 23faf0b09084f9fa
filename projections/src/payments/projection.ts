/**
 * The payments read model (ADR 034): each merchant's paid checkout orders, for the
 * merchant API's list and CSV export and the web's payments page, without scanning the log.
 *
 * A CheckoutPaid adds the payment to two per-merchant sorted sets: by log position (the list's
 * cursor order: a later payment always has a higher position, so it lands in front of every
 * cursor and a walk begun earlier sees neither duplicates nor gaps) and by paid time (the
 * export's range). Its record is a hash of facts that never change. A CheckoutRefunded adds its
 * refund to the order's refunds hash under the refund's id; the refunded total and the status are
 * derived when read, so every write here is an idempotent HSET/ZADD and a rebuild agrees.
 */
import type { RecordedEvent } from '@quern/core';
import { isCheckoutEventType, toCheckoutEvent } from '@quern/core/checkout';
import { isRefundEventType, toRefundEvent } from '@quern/core/refunds';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { merchantPaymentsByTimeKey, merchantPaymentsKey, paymentKey, paymentRefundsKey, timeMember } from './keys.js';

/** The event's own time, else the time the log recorded it (both are in the log, so a rebuild agrees). */
function timeMs(dataTime: string, event: RecordedEvent): number {
  const ms = Date.parse(dataTime);
  if (!Number.isNaN(ms) && ms >= 0) return ms;
  const recorded = Date.parse(event.recordedAt);
  return Number.isNaN(recorded) || recorded < 0 ? 0 : recorded;
}

/** A position as a sorted-set score: exact only up to 2^53, so a larger one is refused, never rounded. */
function scoreOf(position: bigint): number {
  if (position < 0n || position > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`position ${position} is out of a score's exact range`);
  return Number(position);
}

function applyPaid(event: RecordedEvent, tx: ChainableCommander): void {
  const paid = toCheckoutEvent(event);
  if (!paid) throw new Error(`${event.type} is not a well-formed checkout event`);
  const { orderId, merchantUserId, shopperUserId, mlx, usdPerMlx } = paid.data;
  const createdMs = timeMs(paid.data.paidAt, event);
  tx.hset(paymentKey(orderId), {
    merchant: merchantUserId,
    shopper: shopperUserId,
    amount: mlx,
    ...(usdPerMlx === undefined ? {} : { usd_rate: usdPerMlx }),
    created_at: new Date(createdMs).toISOString(),
    position: event.position.toString(),
  });
  tx.zadd(merchantPaymentsKey(merchantUserId), scoreOf(event.position), orderId);
  tx.zadd(merchantPaymentsByTimeKey(merchantUserId), 0, timeMember(createdMs, orderId));
}

function applyRefunded(event: RecordedEvent, tx: ChainableCommander): void {
  const refunded = toRefundEvent(event);
  if (!refunded) throw new Error(`${event.type} is not a well-formed refund event`);
  const { refundId, orderId, mlx } = refunded.data;
  const createdAt = new Date(timeMs(refunded.data.refundedAt, event)).toISOString();
  tx.hset(
    paymentRefundsKey(orderId),
    refundId,
    JSON.stringify({ amount: mlx, created_at: createdAt, position: event.position.toString() }),
  );
}

export const merchantPaymentsProjection: Projection = {
  // The name is the `projection` label of the lag metric, which dashboards and alerts select on,
  // so it keeps its first spelling although the folder is named after the payments capability.
  name: 'merchant-payments',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (isCheckoutEventType(event.type)) applyPaid(event, tx);
    else if (isRefundEventType(event.type)) applyRefunded(event, tx);
  },
};
