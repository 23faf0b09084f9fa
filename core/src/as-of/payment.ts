/**
 * A payment as of a moment: its order's stream (the payment and its refunds, ADR 033) folded up to
 * that moment, in exactly the shape an item of `GET /api/v1/payments` has (the payments read
 * model, projections/src/payments/queries.ts, builds the present one the same way).
 */
import type { Payment } from '../payments/contracts.js';
import { paymentStatusOf, usdValueOf } from '../payments/amounts.js';
import { type OrderStreamState, paymentOf } from '../refunds/state.js';

/** Times as the read model stores them: normalized to `toISOString()` when readable. */
function isoOf(time: string): string {
  const ms = Date.parse(time);
  return Number.isNaN(ms) || ms < 0 ? time : new Date(ms).toISOString();
}

/**
 * The merchant's payment `orderId` in the folded state, or undefined when the state holds no such
 * payment or it is another merchant's (the caller answers both with the same 404).
 */
export function merchantPaymentOf(
  state: OrderStreamState,
  orderId: string,
  merchantUserId: string,
  shopperUsername: string | null,
): Payment | undefined {
  const payment = paymentOf(state, orderId);
  if (!payment || payment.merchantUserId !== merchantUserId) return undefined;
  const refunds = state.refunds.filter((refund) => refund.orderId === orderId);
  const refunded = refunds.reduce((sum, refund) => sum + refund.mlx, 0n);
  const rate = payment.usdPerMlx ?? null;
  return {
    id: orderId,
    object: 'payment',
    status: paymentStatusOf(payment.mlx, refunded),
    amount: payment.mlx.toString(),
    amount_refunded: refunded.toString(),
    currency: 'MLX',
    usd_rate: rate,
    usd_value: usdValueOf(payment.mlx, rate),
    shopper_username: shopperUsername,
    created_at: isoOf(payment.paidAt),
    refunds: refunds.map((refund) => ({ id: refund.refundId, amount: refund.mlx.toString(), created_at: isoOf(refund.refundedAt) })),
  };
}
