/**
 * An order's checkout stream folded with its refunds (ADR 033): the payments (checkout/state.ts)
 * and every CheckoutRefunded on the same stream, so what an order has left to refund is read from
 * the stream whose revision the next refund is appended under.
 */
import { type CheckoutPayment, type CheckoutState, evolveCheckout, initialCheckoutState } from '../checkout/state.js';
import type { CheckoutEvent } from '../checkout/events.js';
import type { CheckoutRefunded } from './events.js';

export interface RefundRecord {
  refundId: string;
  orderId: string;
  merchantUserId: string;
  shopperUserId: string;
  mlx: bigint;
  transferId: string;
  refundedAt: string;
}

export interface OrderStreamState {
  checkout: CheckoutState;
  refunds: RefundRecord[];
}

export const initialOrderStreamState = (): OrderStreamState => ({ checkout: initialCheckoutState(), refunds: [] });

export function toRefundRecord(event: CheckoutRefunded): RefundRecord {
  const d = event.data;
  return {
    refundId: d.refundId,
    orderId: d.orderId,
    merchantUserId: d.merchantUserId,
    shopperUserId: d.shopperUserId,
    mlx: BigInt(d.mlx),
    transferId: d.transferId,
    refundedAt: d.refundedAt,
  };
}

export function evolveOrderStream(state: OrderStreamState, event: CheckoutEvent | CheckoutRefunded): OrderStreamState {
  if (event.type === 'CheckoutRefunded') return { ...state, refunds: [...state.refunds, toRefundRecord(event)] };
  return { ...state, checkout: evolveCheckout(state.checkout, event) };
}

export const paymentOf = (state: OrderStreamState, orderId: string): CheckoutPayment | undefined =>
  state.checkout.payments.find((payment) => payment.orderId === orderId);

/** MLX already given back on an order. */
export function refundedMlxOf(state: OrderStreamState, orderId: string): bigint {
  let total = 0n;
  for (const refund of state.refunds) if (refund.orderId === orderId) total += refund.mlx;
  return total;
}
