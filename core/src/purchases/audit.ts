/**
 * The purchase rule of the ledger audit (ADR 025, run by core/src/audit/, ADR 067), so
 * `npm run audit` and every test that audits the log check purchases too. It ties the money
 * movements of purchases to the purchase streams:
 *
 * - every transfer with a `purchase` reference matches exactly one PurchaseCredited (same transfer
 *   id, order, capture and MLX; from the reserve to the order's buyer), and every PurchaseCredited
 *   names such a transfer (the transfer-claim auditor, configured here);
 * - no order and no capture id is credited twice; no credit without PurchaseCaptured of that
 *   capture, and none of another amount than the order's;
 * - every refund or reversal that moved MLX names a transfer (buyer → reserve, same amount, same
 *   refund id) and every such transfer is named by one; together they return at most what was
 *   credited, and refund at most the USD captured;
 * - every reversal (chargeback) accounts for all it owed back: what it took back plus, when that
 *   was less, a PurchaseReserveLoss of exactly the difference (ADR 047).
 *
 * Conservation needs nothing new: the transfers are ordinary wallet events (fee 0).
 */
import type { AuditReport, AuditWhere, CapabilityAudit, CapabilityAuditRule, ClaimBook } from '../shared/audit-rule.js';
import { type PurchaseTransferReference, isPurchaseReference } from './transfer-reference.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { PURCHASE_STREAM_PREFIX, type PurchaseEvent, toPurchaseEvent } from './events.js';

export type PurchaseViolationCode =
  | 'malformedPurchaseEvent'
  | 'purchaseStreamMismatch'
  | 'purchaseEventBeforeOrder'
  | 'purchaseCreditWithoutCapture'
  | 'purchaseCreditedTwice'
  | 'purchaseCreditMismatch'
  | 'purchaseTransferMismatch'
  | 'purchaseReturnExceedsCredit'
  | 'purchaseReturnMismatch'
  /** A reserve loss that does not fit its reversal, or a reversed order whose credit is not all taken back or lost. */
  | 'purchaseReserveLossMismatch';

interface OrderTrack {
  buyerUserId: string;
  mlx: bigint;
  capture?: { captureId: string; usdCents: bigint };
  credit?: { transferId: string; mlx: bigint };
  returnedMlx: bigint;
  returnedUsdCents: bigint;
  /** Reversals by id: what each owed back (ADR 025's proportional rule), what it took back, whether it recorded its loss. */
  reversals: Map<string, { mlxOwed: bigint; mlxReturned: bigint; lossRecorded: boolean }>;
  lostMlx: bigint;
}

/** A purchase event's claim about a transfer: what the matching wallet transfer must look like. */
interface PurchaseClaim {
  kind: PurchaseTransferReference['kind'];
  orderId: string;
  captureId: string;
  refundId?: string;
  payerWalletId: string;
  payeeWalletId: string;
  amountMlx: bigint;
}

export interface PurchaseFigures {
  ordered: number;
  captured: number;
  credited: number;
  creditedMlx: bigint;
  /** Refunds and reversals recorded. */
  returns: number;
  returnedMlx: bigint;
  /** The refunds among them (PAYMENT.CAPTURE.REFUNDED) and the MLX they took back. */
  refunds: number;
  refundedMlx: bigint;
  /** The reversals (chargebacks, PAYMENT.CAPTURE.REVERSED) and the MLX they took back. */
  reversals: number;
  reversedMlx: bigint;
  /** Reversals that could not take back all they owed (PurchaseReserveLoss) and the MLX the reserve lost. */
  reserveLosses: number;
  reserveLossMlx: bigint;
}

export const isPurchaseStream = (streamId: string): boolean => streamId.startsWith(PURCHASE_STREAM_PREFIX);

/** The purchase checks over `purchase-` streams for one audit run; claims go to the transfer-claim auditor. */
function startPurchaseAudit(
  report: AuditReport<PurchaseViolationCode>,
  claims: ClaimBook<PurchaseClaim>,
): CapabilityAudit<PurchaseViolationCode, PurchaseFigures> {
  const orders = new Map<string, OrderTrack>();
  const creditedCaptures = new Map<string, string>();
  const figures: PurchaseFigures = {
    ordered: 0,
    captured: 0,
    credited: 0,
    creditedMlx: 0n,
    returns: 0,
    returnedMlx: 0n,
    refunds: 0,
    refundedMlx: 0n,
    reversals: 0,
    reversedMlx: 0n,
    reserveLosses: 0,
    reserveLossMlx: 0n,
  };

  function claim(transferId: string, value: PurchaseClaim, where: AuditWhere): void {
    if (claims.isClaimed(transferId))
      report('purchaseTransferMismatch', `transfer ${transferId} named by two purchase events`, { ...where, transferId });
    else claims.claim(transferId, value);
  }

  function track(event: PurchaseEvent, order: OrderTrack | undefined, where: AuditWhere) {
    const id = event.data.orderId;
    if (event.type === 'PurchaseOrdered') {
      if (order) return report('purchaseStreamMismatch', `order ${id} ordered twice`, where);
      figures.ordered += 1;
      orders.set(id, {
        buyerUserId: event.data.buyerUserId,
        mlx: BigInt(event.data.mlx),
        returnedMlx: 0n,
        returnedUsdCents: 0n,
        reversals: new Map(),
        lostMlx: 0n,
      });
      return;
    }
    if (!order) return report('purchaseEventBeforeOrder', `${event.type} on order ${id} before PurchaseOrdered`, where);
    switch (event.type) {
      case 'PurchaseCaptureRequested':
      case 'PurchaseCaptureFailed':
      // The receipt e-mail moves no money (ADR 026).
      case 'PurchaseReceiptSent':
        return;
      case 'PurchaseCaptured':
        if (order.capture) return report('purchaseStreamMismatch', `order ${id} captured twice`, where);
        figures.captured += 1;
        order.capture = { captureId: event.data.captureId, usdCents: BigInt(event.data.usdCents) };
        return;
      case 'PurchaseCredited': {
        const { captureId, transferId } = event.data;
        const mlx = BigInt(event.data.mlx);
        const w = { ...where, transferId };
        if (order.credit || creditedCaptures.has(captureId))
          return report('purchaseCreditedTwice', `order ${id} (capture ${captureId}) credited more than once`, w);
        if (order.capture?.captureId !== captureId)
          report('purchaseCreditWithoutCapture', `order ${id} credited for capture ${captureId}, which it did not record`, w);
        if (mlx !== order.mlx) report('purchaseCreditMismatch', `order ${id} credited ${mlx} MLX, ordered ${order.mlx}`, w);
        order.credit = { transferId, mlx };
        creditedCaptures.set(captureId, id);
        figures.credited += 1;
        figures.creditedMlx += mlx;
        claim(
          transferId,
          {
            kind: 'purchase',
            orderId: id,
            captureId,
            payerWalletId: SYSTEM_WALLET_IDS.reserve,
            payeeWalletId: order.buyerUserId,
            amountMlx: mlx,
          },
          w,
        );
        return;
      }
      case 'PurchaseRefunded':
      case 'PurchaseReversed': {
        const d = event.data;
        const mlxReturned = BigInt(d.mlxReturned);
        const refundId = event.type === 'PurchaseRefunded' ? event.data.refundId : event.data.reversalId;
        figures.returns += 1;
        figures.returnedMlx += mlxReturned;
        if (event.type === 'PurchaseRefunded') {
          figures.refunds += 1;
          figures.refundedMlx += mlxReturned;
        } else {
          figures.reversals += 1;
          figures.reversedMlx += mlxReturned;
        }
        const returnedBefore = order.returnedMlx;
        order.returnedMlx += mlxReturned;
        order.returnedUsdCents += BigInt(d.usdCents);
        if (event.type === 'PurchaseReversed') {
          const credited = order.credit?.mlx ?? 0n;
          const captured = order.capture?.usdCents ?? 0n;
          const share = captured === 0n ? credited : (credited * order.returnedUsdCents + captured - 1n) / captured;
          const owed = (share < credited ? share : credited) - returnedBefore - order.lostMlx;
          order.reversals.set(refundId, { mlxOwed: owed > 0n ? owed : 0n, mlxReturned, lossRecorded: false });
        }
        const creditedMlx = order.credit?.mlx ?? 0n;
        if (order.returnedMlx > creditedMlx)
          report('purchaseReturnExceedsCredit', `order ${id} took back ${order.returnedMlx} MLX, credited ${creditedMlx}`, where);
        if (!order.capture || order.capture.captureId !== d.captureId || order.returnedUsdCents > order.capture.usdCents)
          report('purchaseReturnMismatch', `order ${id}: ${event.type} ${refundId} does not fit its capture`, where);
        if (d.transferId === undefined) {
          if (mlxReturned !== 0n)
            report('purchaseReturnMismatch', `order ${id}: ${refundId} returned ${mlxReturned} MLX without a transfer`, where);
          return;
        }
        const kind = event.type === 'PurchaseRefunded' ? 'purchaseRefund' : 'purchaseReversal';
        claim(
          d.transferId,
          {
            kind,
            orderId: id,
            captureId: d.captureId,
            refundId,
            payerWalletId: order.buyerUserId,
            payeeWalletId: SYSTEM_WALLET_IDS.reserve,
            amountMlx: mlxReturned,
          },
          { ...where, transferId: d.transferId },
        );
        return;
      }
    }
  }

  /** A reversal's shortfall: after its reversal, once, of the difference it states, within the credit. */
  function trackLoss(event: Extract<PurchaseEvent, { type: 'PurchaseReserveLoss' }>, order: OrderTrack, where: AuditWhere): void {
    const d = event.data;
    const [owed, returned, lost] = [BigInt(d.mlxOwed), BigInt(d.mlxReturned), BigInt(d.mlxLost)];
    const reversal = order.reversals.get(d.reversalId);
    figures.reserveLosses += 1;
    figures.reserveLossMlx += lost;
    order.lostMlx += lost;
    const fits =
      reversal !== undefined &&
      !reversal.lossRecorded &&
      reversal.mlxReturned === returned &&
      reversal.mlxOwed === owed &&
      lost > 0n &&
      owed === returned + lost &&
      order.capture?.captureId === d.captureId &&
      order.returnedMlx + order.lostMlx <= (order.credit?.mlx ?? 0n);
    if (reversal) reversal.lossRecorded = true;
    if (!fits)
      report('purchaseReserveLossMismatch', `order ${d.orderId}: reserve loss of ${lost} MLX does not fit reversal ${d.reversalId}`, where);
  }

  return {
    addRecord(record, where) {
      const event = toPurchaseEvent(record);
      if (!event)
        return report('malformedPurchaseEvent', `${record.type} on ${record.streamId} is not a well-formed purchase event`, where);
      if (record.streamId !== `${PURCHASE_STREAM_PREFIX}${event.data.orderId}`)
        return report('purchaseStreamMismatch', `${event.type} for order ${event.data.orderId} appended to ${record.streamId}`, where);
      const order = orders.get(event.data.orderId);
      if (event.type === 'PurchaseReserveLoss' && order) return trackLoss(event, order, where);
      track(event, order, where);
    },
    finalCheck(finalReport) {
      // Every chargeback accounts for all it owed: taken back, or recorded as the reserve's loss, so
      // the MLX the reserve sold and was not paid for is never silently missing.
      for (const [orderId, order] of orders)
        for (const [reversalId, reversal] of order.reversals)
          if (reversal.mlxReturned < reversal.mlxOwed && !reversal.lossRecorded)
            finalReport(
              'purchaseReserveLossMismatch',
              `order ${orderId}: reversal ${reversalId} took back ${reversal.mlxReturned} of ${reversal.mlxOwed} MLX owed and recorded no reserve loss`,
            );
    },
    figures: () => ({ ...figures }),
  };
}

export const purchaseAuditRule: CapabilityAuditRule<PurchaseViolationCode, PurchaseClaim, PurchaseTransferReference, PurchaseFigures> = {
  describe: (f, mlx) => [
    `purchases: ${f.ordered} ordered, ${f.captured} captured, ${f.credited} credited (${mlx(f.creditedMlx)} from the reserve)`,
    `purchase refunds: ${f.refunds} (${mlx(f.refundedMlx)} back to the reserve)`,
    `purchase reversals (chargebacks): ${f.reversals} (${mlx(f.reversedMlx)} back to the reserve)`,
    `reserve losses (chargebacks not taken back): ${f.reserveLosses} (${mlx(f.reserveLossMlx)} sold and not paid for)`,
  ],
  readsRecord: (record) => isPurchaseStream(record.streamId),
  transfers: {
    mismatch: 'purchaseTransferMismatch',
    isOwnReference: isPurchaseReference,
    matches: (c, t) =>
      c.kind === t.reference.kind &&
      c.orderId === t.reference.orderId &&
      c.captureId === t.reference.captureId &&
      c.refundId === t.reference.refundId &&
      c.payerWalletId === t.payerWalletId &&
      c.payeeWalletId === t.payeeWalletId &&
      c.amountMlx === t.amountMlx,
    unmatchedMessage: (transferId, t) => `${t.reference.kind} transfer ${transferId} matches no purchase event`,
    neverMadeMessage: (transferId, c) => `order ${c.orderId}: ${c.kind} names transfer ${transferId}, which was never made`,
  },
  start: startPurchaseAudit,
};
