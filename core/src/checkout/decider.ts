/**
 * Pure checkout decisions (ADR 029): whether a checkout is paid now or was paid already, the
 * ledger transfer that pays it, and the event recorded with it. No I/O, no clock.
 *
 * Once per window: the intent's last payment answers every identical checkout for
 * CHECKOUT_REPEAT_WINDOW_MS after it (double click, retry, second tab); after that the same cart
 * is a new purchase. The window runs from the payment, so there is no boundary a burst can straddle.
 */
import { AppError } from '../shared/errors.js';
import type { ReserveTransfer } from '../wallet/commands.js';
import { mlxToWire } from '../wallet/money.js';
import { type CheckoutPaid, checkoutOrderId } from './events.js';
import type { CheckoutPayment, CheckoutState } from './state.js';

export const CHECKOUT_REPEAT_WINDOW_MS = 10 * 60 * 1000;

export interface CheckoutRequestFacts {
  intentId: string;
  shopperUserId: string;
  merchantUserId: string;
  mlx: bigint;
  cartDigest: string;
  usdPerMlx?: string;
  reference?: string;
  /** The cart's first line's name: what the rows name the payment by when the shop gave no reference. */
  firstItem?: string;
}

export interface CheckoutPlan extends CheckoutRequestFacts {
  orderId: string;
  transferId: string;
  idempotencyKey: string;
}

export type CheckoutOutcome = { kind: 'alreadyPaid'; payment: CheckoutPayment } | { kind: 'pay'; plan: CheckoutPlan };

export function decideCheckout(state: CheckoutState, request: CheckoutRequestFacts, now: Date): CheckoutOutcome {
  if (request.shopperUserId === request.merchantUserId)
    throw new AppError('VALIDATION', 'errors:checkoutToSelf', { to: 'errors:checkoutToSelf' });
  if (request.mlx <= 0n) throw new AppError('VALIDATION', 'errors:checkoutInvalidPrice', { price: 'errors:checkoutInvalidPrice' });
  const last = state.payments[state.payments.length - 1];
  if (last) {
    // The intent id hashes shopper, merchant and cart: a payment of anything else here is a corrupt stream.
    const same =
      last.shopperUserId === request.shopperUserId &&
      last.merchantUserId === request.merchantUserId &&
      last.mlx === request.mlx &&
      last.reference === request.reference;
    if (!same || last.cartDigest !== request.cartDigest) throw new AppError('CONFLICT', 'errors:idempotencyConflict');
    if (now.getTime() - Date.parse(last.paidAt) < CHECKOUT_REPEAT_WINDOW_MS) return { kind: 'alreadyPaid', payment: last };
  }
  const orderId = checkoutOrderId(request.intentId, state.payments.length + 1);
  return {
    kind: 'pay',
    plan: { ...request, orderId, transferId: `checkout-${orderId}`, idempotencyKey: `checkout:${orderId}` },
  };
}

/** The shopper's transfer to the merchant: fee 0 (the shopper pays the shop's price), referenced to the order. */
export function checkoutTransfer(plan: CheckoutPlan, merchantAddress: string): ReserveTransfer {
  return {
    type: 'ReserveTransfer',
    data: {
      transferId: plan.transferId,
      toAddress: merchantAddress,
      toWalletId: plan.merchantUserId,
      amountMlx: plan.mlx,
      feeMlx: 0n,
      idempotencyKey: plan.idempotencyKey,
      reference: { kind: 'checkout', orderId: plan.orderId },
    },
  };
}

export function checkoutPaidEvent(plan: CheckoutPlan, transferId: string, now: Date): CheckoutPaid {
  const event: CheckoutPaid = {
    type: 'CheckoutPaid',
    data: {
      orderId: plan.orderId,
      shopperUserId: plan.shopperUserId,
      merchantUserId: plan.merchantUserId,
      mlx: mlxToWire(plan.mlx),
      cartDigest: plan.cartDigest,
      transferId,
      paidAt: now.toISOString(),
    },
  };
  if (plan.usdPerMlx !== undefined) event.data.usdPerMlx = plan.usdPerMlx;
  if (plan.reference !== undefined) event.data.reference = plan.reference;
  if (plan.firstItem !== undefined) event.data.firstItem = plan.firstItem;
  return event;
}
