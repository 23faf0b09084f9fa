/**
 * The checkout part of the ledger audit (ADR 029), fed by the wallet audit like the purchase
 * part, so `npm run audit` and every test that audits the log check checkouts too:
 *
 * - every transfer with a `checkout` reference matches exactly one CheckoutPaid (same transfer
 *   id, order, MLX; from the order's shopper to its merchant), and every CheckoutPaid names such
 *   a transfer;
 * - no order is paid twice, each lands on its intent's stream, and an intent's orders are
 *   numbered 1, 2, 3… in order (a gap or a repeat is a payment the decider never made).
 *
 * Conservation needs nothing new: the transfers are ordinary wallet events (fee 0).
 */
import type { CheckoutTransferReference } from '../wallet/events.js';
import { CHECKOUT_STREAM_PREFIX, checkoutStream, parseCheckoutOrderId, toCheckoutEvent } from './events.js';

export type CheckoutViolationCode = 'malformedCheckoutEvent' | 'checkoutStreamMismatch' | 'checkoutPaidTwice' | 'checkoutTransferMismatch';

interface Where {
  streamId?: string;
  transferId?: string;
  position?: string;
}
export type CheckoutReport = (code: CheckoutViolationCode, message: string, where?: Where) => void;

/** What CheckoutPaid says its transfer is. */
interface TransferClaim {
  orderId: string;
  payerWalletId: string;
  payeeWalletId: string;
  amountMlx: bigint;
}

/** A transfer as its reservation recorded it. */
export interface CheckoutReferencedTransfer {
  reference: CheckoutTransferReference;
  payerWalletId: string;
  payeeWalletId: string | undefined;
  amountMlx: bigint;
}

export interface CheckoutFigures {
  /** Orders paid (CheckoutPaid events). */
  paid: number;
  paidMlx: bigint;
}

export interface CheckoutAuditor {
  addCheckoutRecord(record: { streamId: string; type: string; data: unknown }, where: Where): void;
  addReferencedTransfer(transferId: string, transfer: CheckoutReferencedTransfer): void;
  finalCheck(report: CheckoutReport): void;
  figures(): CheckoutFigures;
}

export const isCheckoutStream = (streamId: string): boolean => streamId.startsWith(CHECKOUT_STREAM_PREFIX);

export function createCheckoutAuditor(report: CheckoutReport): CheckoutAuditor {
  const paidOrders = new Set<string>();
  const lastSequence = new Map<string, number>();
  const claims = new Map<string, TransferClaim>();
  const transfers = new Map<string, CheckoutReferencedTransfer>();
  const figures: CheckoutFigures = { paid: 0, paidMlx: 0n };

  return {
    addCheckoutRecord(record, where) {
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
      if (claims.has(d.transferId)) return report('checkoutTransferMismatch', `transfer ${d.transferId} named by two checkout payments`, w);
      claims.set(d.transferId, { orderId: d.orderId, payerWalletId: d.shopperUserId, payeeWalletId: d.merchantUserId, amountMlx: mlx });
    },
    addReferencedTransfer(transferId, transfer) {
      transfers.set(transferId, transfer);
    },
    finalCheck(finalReport) {
      for (const [transferId, t] of transfers) {
        const c = claims.get(transferId);
        const matches =
          c !== undefined &&
          c.orderId === t.reference.orderId &&
          c.payerWalletId === t.payerWalletId &&
          c.payeeWalletId === t.payeeWalletId &&
          c.amountMlx === t.amountMlx;
        if (!matches)
          finalReport('checkoutTransferMismatch', `checkout transfer ${transferId} matches no checkout payment`, { transferId });
      }
      for (const [transferId, c] of claims)
        if (!transfers.has(transferId))
          finalReport('checkoutTransferMismatch', `order ${c.orderId} names transfer ${transferId}, which was never made`, { transferId });
    },
    figures: () => ({ ...figures }),
  };
}
