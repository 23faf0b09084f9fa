/**
 * The purchase a transfer belongs to (ADR 025): the reserve's credit of a captured order, or the
 * MLX a refund or reversal took back (`refundId` is the refund's or the reversal's id). Repeated
 * on the reservation, the post and the credit, so each history row is written from its event alone.
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';

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

export const isPurchaseReference = (reference: TransferReferenceShape): reference is PurchaseTransferReference =>
  (purchaseReferenceKinds as readonly string[]).includes(reference.kind);
