/**
 * A paid checkout order as its merchant's server verifies it (ADR 031): the payment and what was
 * refunded of it. It lives with refunds, which folds an order's stream with its refunds (ADR 033),
 * so checkout needs nothing of the refunds capability (ADR 067).
 */
import { parseCheckoutOrderId } from '../checkout/events.js';
import type { CheckoutOrderView } from '../checkout/merchant-order.js';
import { loadUser } from '../identity/handlers.js';
import { paymentStatusOf } from '../payments/amounts.js';
import { type RefundDeps, loadOrderStream } from './handlers.js';
import { paymentOf, refundedMlxOf } from './state.js';

/**
 * A paid checkout order, for the merchant's verification call; undefined when there is none.
 * `asOfRevision` answers the order as it was right after that event of its stream (an
 * `order.paid` webhook describes the order at its CheckoutPaid, not as later refunds left it, ADR 071).
 */
export async function readCheckoutOrder(
  deps: Pick<RefundDeps, 'store'>,
  orderId: string,
  options: { asOfRevision?: bigint } = {},
): Promise<CheckoutOrderView | undefined> {
  const parsed = parseCheckoutOrderId(orderId);
  if (!parsed) return undefined;
  // The order's stream with its refunds (ADR 033), so the answer says how much was given back.
  const { state } = await loadOrderStream(
    deps,
    parsed.intentId,
    options.asOfRevision === undefined ? {} : { upToRevision: options.asOfRevision },
  );
  const payment = paymentOf(state, orderId);
  if (!payment) return undefined;
  const shopper = (await loadUser(deps, payment.shopperUserId)).state;
  const refunded = refundedMlxOf(state, orderId);
  return {
    orderId,
    status: paymentStatusOf(payment.mlx, refunded),
    mlx: payment.mlx,
    refundedMlx: refunded,
    currency: 'MLX',
    ...(payment.usdPerMlx ? { usdPerMlx: payment.usdPerMlx } : {}),
    shopperUserId: payment.shopperUserId,
    ...(shopper ? { shopperUsername: shopper.username } : {}),
    merchantUserId: payment.merchantUserId,
    transferId: payment.transferId,
    createdAt: payment.paidAt,
    ...(payment.reference === undefined ? {} : { reference: payment.reference }),
  };
}
