/**
 * The checkout rule of the ledger audit (ADR 029, run by core/src/audit/, ADR 067), so
 * `npm run audit` and every test that audits the log check checkouts too:
 *
 * - every transfer with a `checkout` reference matches exactly one CheckoutPaid (same transfer
 *   id, order, MLX; from the order's shopper to its merchant), and every CheckoutPaid names such
 *   a transfer (the transfer-claim auditor, configured here);
 * - no order is paid twice, each lands on its intent's stream, and an intent's orders are
 *   numbered 1, 2, 3… in order (a gap or a repeat is a payment the decider never made).
 *
 * Conservation needs nothing new: the transfers are ordinary wallet events (fee 0).
 */
import type { CapabilityAuditRule } from '../shared/audit-rule.js';
import { type CheckoutTransferReference, isCheckoutReference } from './transfer-reference.js';
import { checkoutStream, isCheckoutStream, isOrderStreamRefundType, parseCheckoutOrderId, toCheckoutEvent } from './events.js';

export type CheckoutViolationCode = 'malformedCheckoutEvent' | 'checkoutStreamMismatch' | 'checkoutPaidTwice' | 'checkoutTransferMismatch';

/** What CheckoutPaid says its transfer is. */
interface CheckoutClaim {
  orderId: string;
  payerWalletId: string;
  payeeWalletId: string;
  amountMlx: bigint;
}

export interface CheckoutFigures {
  /** Orders paid (CheckoutPaid events). */
  paid: number;
  paidMlx: bigint;
}

export const checkoutAuditRule: CapabilityAuditRule<CheckoutViolationCode, CheckoutClaim, CheckoutTransferReference, CheckoutFigures> = {
  // An order's refunds share its stream (ADR 033); the refund rule reads those.
  describe: (f, mlx) => [`checkouts: ${f.paid} paid (${mlx(f.paidMlx)} from shoppers to merchants)`],
  readsRecord: (record) => isCheckoutStream(record.streamId) && !isOrderStreamRefundType(record.type),
  transfers: {
    mismatch: 'checkoutTransferMismatch',
    isOwnReference: isCheckoutReference,
    matches: (c, t) =>
      c.orderId === t.reference.orderId &&
      c.payerWalletId === t.payerWalletId &&
      c.payeeWalletId === t.payeeWalletId &&
      c.amountMlx === t.amountMlx,
    unmatchedMessage: (transferId) => `checkout transfer ${transferId} matches no checkout payment`,
    neverMadeMessage: (transferId, c) => `order ${c.orderId} names transfer ${transferId}, which was never made`,
  },
  start(report, claims) {
    const paidOrders = new Set<string>();
    const lastSequence = new Map<string, number>();
    const figures: CheckoutFigures = { paid: 0, paidMlx: 0n };
    return {
      addRecord(record, where) {
        const event = toCheckoutEvent(record);
        if (!event)
          return report('malformedCheckoutEvent', `${record.type} on ${record.streamId} is not a well-formed checkout event`, where);
        const d = event.data;
        const order = parseCheckoutOrderId(d.orderId);
        if (!order || record.streamId !== checkoutStream(order.intentId))
          return report('checkoutStreamMismatch', `CheckoutPaid for order ${d.orderId} appended to ${record.streamId}`, where);
        const w = { ...where, transferId: d.transferId };
        if (paidOrders.has(d.orderId)) return report('checkoutPaidTwice', `order ${d.orderId} paid more than once`, w);
        const expected = (lastSequence.get(order.intentId) ?? 0) + 1;
        if (order.sequence !== expected)
          report('checkoutStreamMismatch', `order ${d.orderId} is payment ${order.sequence}, expected ${expected}`, w);
        lastSequence.set(order.intentId, Math.max(order.sequence, expected - 1));
        paidOrders.add(d.orderId);
        const mlx = BigInt(d.mlx);
        figures.paid += 1;
        figures.paidMlx += mlx;
        if (claims.isClaimed(d.transferId))
          return report('checkoutTransferMismatch', `transfer ${d.transferId} named by two checkout payments`, w);
        claims.claim(d.transferId, { orderId: d.orderId, payerWalletId: d.shopperUserId, payeeWalletId: d.merchantUserId, amountMlx: mlx });
      },
      figures: () => ({ ...figures }),
    };
  },
};
