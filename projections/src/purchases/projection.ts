/**
 * The purchases read model: the open orders the purchase sweep reconciles (ADR 026), so it never
 * scans the log. Two sorted sets, scored by time: orders awaiting their capture (ordered, not yet
 * captured) and orders awaiting their credit (captured, neither credited nor refunded).
 *
 * An order leaves "awaiting capture" when captured, or once it is older than PayPal's approval
 * window: trimmed on each new order by that order's time, so the trim depends only on the log and
 * a rebuild gives the same sets. A captured order stays "awaiting credit" whatever its age, until
 * credited or refunded: money was taken, and the sweep must not forget it.
 */
import { assertNever, type RecordedEvent } from '@quern/core';
import { isPurchaseEventType, PAYPAL_APPROVAL_WINDOW_MS, toPurchaseEvent } from '@quern/core/purchases';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { PURCHASES_AWAITING_CAPTURE_KEY, PURCHASES_AWAITING_CREDIT_KEY } from './keys.js';

/** The event's own time, else the time the log recorded it (both are in the log, so a rebuild agrees). */
function timeMs(dataTime: string, event: RecordedEvent): number {
  const ms = Date.parse(dataTime);
  if (!Number.isNaN(ms)) return ms;
  const recorded = Date.parse(event.recordedAt);
  return Number.isNaN(recorded) ? 0 : recorded;
}

export const purchasesProjection: Projection = {
  name: 'purchases',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    // By exact type: the capture claims (PurchaseCaptureClaimed, another stream) are not purchase events.
    if (!isPurchaseEventType(event.type)) return;
    const purchase = toPurchaseEvent(event);
    if (!purchase) throw new Error(`${event.type} is not a well-formed purchase event`);
    const { orderId } = purchase.data;
    switch (purchase.type) {
      case 'PurchaseOrdered': {
        const orderedMs = timeMs(purchase.data.orderedAt, event);
        tx.zadd(PURCHASES_AWAITING_CAPTURE_KEY, orderedMs, orderId);
        tx.zremrangebyscore(PURCHASES_AWAITING_CAPTURE_KEY, '-inf', `(${orderedMs - PAYPAL_APPROVAL_WINDOW_MS}`);
        return;
      }
      case 'PurchaseCaptured':
        tx.zrem(PURCHASES_AWAITING_CAPTURE_KEY, orderId);
        tx.zadd(PURCHASES_AWAITING_CREDIT_KEY, timeMs(purchase.data.capturedAt, event), orderId);
        return;
      case 'PurchaseCredited':
      case 'PurchaseRefunded':
      case 'PurchaseReversed':
        // Credited, or refunded before the credit (which then never comes): nothing is left to do.
        tx.zrem(PURCHASES_AWAITING_CAPTURE_KEY, orderId);
        tx.zrem(PURCHASES_AWAITING_CREDIT_KEY, orderId);
        return;
      case 'PurchaseCaptureRequested':
      case 'PurchaseCaptureFailed':
      case 'PurchaseReserveLoss':
      case 'PurchaseReceiptSent':
        return;
      default:
        assertNever(purchase);
    }
  },
};
