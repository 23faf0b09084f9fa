/**
 * The purchase a transfer belongs to (ADR 025): the reserve's credit of a captured order, or the
 * MLX a refund or reversal took back (`refundId` is the refund's or the reversal's id). Repeated
 * on the reservation, the post and the credit, so each history row is written from its event alone.
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type PurchaseReferenceKind = 'purchase' | 'purchaseRefund' | 'purchaseReversal';
export const purchaseReferenceKinds: readonly PurchaseReferenceKind[] = ['purchase', 'purchaseRefund', 'purchaseReversal'];

export type PurchaseTransferReference = {
  kind: PurchaseReferenceKind;
  orderId: string;
  captureId: string;
  refundId?: string;
};

export const purchaseTransferReference: z.ZodType<PurchaseTransferReference> = z.object({
  kind: z.enum(purchaseReferenceKinds),
  orderId: transferReferenceId,
  captureId: transferReferenceId,
  refundId: transferReferenceId.optional(),
});

/** A purchase names no refund; a refund or reversal names the one it is. */
const purchaseCredit = z.object({
  kind: z.literal('purchase'),
  orderId: transferReferenceId,
  captureId: transferReferenceId,
  refundId: z.undefined().optional(),
});
const purchaseReturn = (kind: 'purchaseRefund' | 'purchaseReversal') =>
  z.object({ kind: z.literal(kind), orderId: transferReferenceId, captureId: transferReferenceId, refundId: transferReferenceId });

/**
 * The wallet's terms of the purchase kinds (ADR 025, 047, 077): no fee, settled at once with the
 * purchase's own event. A purchase is the reserve selling MLX, and its credit starts the hold of
 * the bought order; a refund or reversal takes bought MLX back to the reserve and shrinks that hold.
 */
export const purchaseTransferTerms: Readonly<Record<PurchaseReferenceKind, TransferTerms>> = {
  purchase: { reference: purchaseCredit, payer: 'reserve', payee: 'any', fee: 'none', settlement: 'atOnce', purchaseHold: 'starts' },
  purchaseRefund: {
    reference: purchaseReturn('purchaseRefund'),
    payer: 'any',
    payee: 'reserve',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'returns',
  },
  purchaseReversal: {
    reference: purchaseReturn('purchaseReversal'),
    payer: 'any',
    payee: 'reserve',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'returns',
  },
};

export const isPurchaseReference = (reference: TransferReferenceShape): reference is PurchaseTransferReference =>
  (purchaseReferenceKinds as readonly string[]).includes(reference.kind);
