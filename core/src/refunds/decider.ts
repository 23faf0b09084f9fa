/**
 * The refund decision (ADR 033), pure: on the order's stream as folded, may this merchant give
 * this much back? Only the order's merchant may refund (another merchant is answered as for an
 * unknown order, so a key cannot probe for orders); the amount defaults to what is left, and is
 * between 1 and what is left; a fully refunded order is refused with its own message.
 */
import { AppError } from '../shared/errors.js';
import type { ReserveTransfer } from '../wallet/commands.js';
import { mlxToWire } from '../wallet/money.js';
import { type CheckoutRefunded, refundTransferId } from './events.js';
import { type OrderStreamState, type RefundRecord, paymentOf, refundedMlxOf } from './state.js';

export interface RefundRequestFacts {
  refundId: string;
  orderId: string;
  merchantUserId: string;
  /** Absent: refund everything that is left. */
  amountMlx?: bigint;
}

export interface RefundPlan {
  refundId: string;
  orderId: string;
  merchantUserId: string;
  shopperUserId: string;
  mlx: bigint;
  transferId: string;
}

export type RefundOutcome = { kind: 'alreadyRefunded'; refund: RefundRecord } | { kind: 'refund'; plan: RefundPlan };

export const refundOrderNotFound = () => new AppError('NOT_FOUND', 'errors:checkoutOrderNotFound');

export function decideRefund(state: OrderStreamState, request: RefundRequestFacts): RefundOutcome {
  const payment = paymentOf(state, request.orderId);
  if (!payment || payment.merchantUserId !== request.merchantUserId) throw refundOrderNotFound();
  const existing = state.refunds.find((refund) => refund.refundId === request.refundId);
  if (existing) return { kind: 'alreadyRefunded', refund: existing };
  const leftMlx = payment.mlx - refundedMlxOf(state, request.orderId);
  if (leftMlx <= 0n) throw new AppError('CONFLICT', 'errors:orderFullyRefunded');
  const mlx = request.amountMlx ?? leftMlx;
  if (mlx < 1n) throw new AppError('VALIDATION', 'errors:invalidAmount', { amount: 'errors:invalidAmount' });
  if (mlx > leftMlx)
    throw new AppError(
      'VALIDATION',
      'errors:refundAboveRemaining',
      { amount: 'errors:refundAboveRemaining' },
      { leftMlx: mlxToWire(leftMlx) },
    );
  return {
    kind: 'refund',
    plan: {
      refundId: request.refundId,
      orderId: request.orderId,
      merchantUserId: request.merchantUserId,
      shopperUserId: payment.shopperUserId,
      mlx,
      transferId: refundTransferId(request.refundId),
    },
  };
}

/** The wallet transfer of a refund: merchant → shopper, fee 0, settled at once with its event. */
export function refundTransfer(plan: RefundPlan, shopperAddress: string): ReserveTransfer {
  return {
    type: 'ReserveTransfer',
    data: {
      transferId: plan.transferId,
      toAddress: shopperAddress,
      toWalletId: plan.shopperUserId,
      amountMlx: plan.mlx,
      feeMlx: 0n,
      reference: { kind: 'checkoutRefund', orderId: plan.orderId, refundId: plan.refundId },
    },
  };
}

export function checkoutRefundedEvent(plan: RefundPlan, now: Date): CheckoutRefunded {
  return {
    type: 'CheckoutRefunded',
    data: {
      refundId: plan.refundId,
      orderId: plan.orderId,
      merchantUserId: plan.merchantUserId,
      shopperUserId: plan.shopperUserId,
      mlx: mlxToWire(plan.mlx),
      transferId: plan.transferId,
      refundedAt: now.toISOString(),
    },
  };
}
