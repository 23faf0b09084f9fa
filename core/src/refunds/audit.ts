/**
 * The refund rule of the ledger audit (ADR 033, run by core/src/audit/, ADR 067):
 *
 * - every transfer with a `checkoutRefund` reference matches exactly one CheckoutRefunded (same
 *   transfer id, order, refund id, MLX; from the order's merchant to its shopper), and every
 *   CheckoutRefunded names such a transfer (the transfer-claim auditor, configured here);
 * - a refund lands on its order's stream, after the order was paid, names the order's merchant
 *   and shopper, and the refunds of an order never sum above what was paid;
 * - no refund id twice.
 *
 * Conservation needs nothing new: the transfers are ordinary wallet events (fee 0).
 */
import { checkoutStream, isCheckoutStream, parseCheckoutOrderId, toCheckoutEvent } from '../checkout/events.js';
import type { CapabilityAuditRule, LedgerRecord, AuditWhere } from '../shared/audit-rule.js';
import { type CheckoutRefundTransferReference, isCheckoutRefundReference } from './transfer-reference.js';
import { isRefundEventType, toRefundEvent } from './events.js';

export type RefundViolationCode =
  | 'malformedRefundEvent'
  | 'refundStreamMismatch'
  | 'refundWithoutPayment'
  | 'refundAbovePaid'
  | 'refundedTwice'
  | 'refundTransferMismatch';

export interface RefundFigures {
  refunds: number;
  refundedMlx: bigint;
}

interface PaidOrder {
  merchantUserId: string;
  shopperUserId: string;
  paidMlx: bigint;
  refundedMlx: bigint;
}

interface RefundClaim {
  orderId: string;
  refundId: string;
  payerWalletId: string;
  payeeWalletId: string;
  amountMlx: bigint;
}

export const refundAuditRule: CapabilityAuditRule<RefundViolationCode, RefundClaim, CheckoutRefundTransferReference, RefundFigures> = {
  // Every record of a `checkout-` stream: payments are remembered, refunds checked against them.
  describe: (f, mlx) => [`checkout refunds: ${f.refunds} (${mlx(f.refundedMlx)} from merchants back to shoppers)`],
  readsRecord: (record) => isCheckoutStream(record.streamId),
  transfers: {
    mismatch: 'refundTransferMismatch',
    isOwnReference: isCheckoutRefundReference,
    matches: (c, t) =>
      c.orderId === t.reference.orderId &&
      c.refundId === t.reference.refundId &&
      c.payerWalletId === t.payerWalletId &&
      c.payeeWalletId === t.payeeWalletId &&
      c.amountMlx === t.amountMlx,
    unmatchedMessage: (transferId) => `refund transfer ${transferId} matches no refund`,
    neverMadeMessage: (transferId, c) => `refund ${c.refundId} names transfer ${transferId}, which was never made`,
  },
  start(report, claims) {
    const orders = new Map<string, PaidOrder>();
    const refundIds = new Set<string>();
    const figures: RefundFigures = { refunds: 0, refundedMlx: 0n };

    function addRefund(record: LedgerRecord, where: AuditWhere) {
      const event = toRefundEvent(record);
      if (!event) return report('malformedRefundEvent', `${record.type} on ${record.streamId} is not a well-formed refund event`, where);
      const d = event.data;
      const w = { ...where, transferId: d.transferId };
      const order = parseCheckoutOrderId(d.orderId);
      if (!order || record.streamId !== checkoutStream(order.intentId))
        return report('refundStreamMismatch', `refund ${d.refundId} of order ${d.orderId} appended to ${record.streamId}`, w);
      if (refundIds.has(d.refundId)) return report('refundedTwice', `refund ${d.refundId} recorded more than once`, w);
      refundIds.add(d.refundId);
      const mlx = BigInt(d.mlx);
      figures.refunds += 1;
      figures.refundedMlx += mlx;
      const paid = orders.get(d.orderId);
      if (!paid) report('refundWithoutPayment', `refund ${d.refundId} of order ${d.orderId}, which was never paid`, w);
      else {
        if (paid.merchantUserId !== d.merchantUserId || paid.shopperUserId !== d.shopperUserId)
          report('refundTransferMismatch', `refund ${d.refundId} names other parties than order ${d.orderId}`, w);
        paid.refundedMlx += mlx;
        if (paid.refundedMlx > paid.paidMlx)
          report('refundAbovePaid', `order ${d.orderId} refunded ${paid.refundedMlx} MLX, paid ${paid.paidMlx}`, w);
      }
      if (claims.isClaimed(d.transferId)) return report('refundTransferMismatch', `transfer ${d.transferId} named by two refunds`, w);
      claims.claim(d.transferId, {
        orderId: d.orderId,
        refundId: d.refundId,
        payerWalletId: d.merchantUserId,
        payeeWalletId: d.shopperUserId,
        amountMlx: mlx,
      });
    }

    return {
      addRecord(record, where) {
        if (isRefundEventType(record.type)) return addRefund(record, where);
        // Payments are checked by the checkout rule; here they are only the bound of their refunds.
        const paid = toCheckoutEvent(record);
        if (paid && !orders.has(paid.data.orderId))
          orders.set(paid.data.orderId, {
            merchantUserId: paid.data.merchantUserId,
            shopperUserId: paid.data.shopperUserId,
            paidMlx: BigInt(paid.data.mlx),
            refundedMlx: 0n,
          });
      },
      figures: () => ({ ...figures }),
    };
  },
};
