/** A checkout intent's stream folded: its payments, oldest first (a few at most: one per repeat window). */
import type { CheckoutEvent } from './events.js';

export interface CheckoutPayment {
  orderId: string;
  shopperUserId: string;
  merchantUserId: string;
  mlx: bigint;
  cartDigest: string;
  usdPerMlx?: string;
  transferId: string;
  paidAt: string;
  reference?: string;
}

export interface CheckoutState {
  payments: CheckoutPayment[];
}

export const initialCheckoutState = (): CheckoutState => ({ payments: [] });

export function evolveCheckout(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  const d = event.data;
  const payment: CheckoutPayment = {
    orderId: d.orderId,
    shopperUserId: d.shopperUserId,
    merchantUserId: d.merchantUserId,
    mlx: BigInt(d.mlx),
    cartDigest: d.cartDigest,
    transferId: d.transferId,
    paidAt: d.paidAt,
  };
  if (d.usdPerMlx !== undefined) payment.usdPerMlx = d.usdPerMlx;
  if (d.reference !== undefined) payment.reference = d.reference;
  return { payments: [...state.payments, payment] };
}
