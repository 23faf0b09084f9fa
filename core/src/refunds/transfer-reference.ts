/** MLX a merchant gave back to the shopper of a paid checkout order (ADR 033): merchant → shopper, fee 0. */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type CheckoutRefundTransferReference = { kind: 'checkoutRefund'; orderId: string; refundId: string };

export const checkoutRefundTransferReference: z.ZodType<CheckoutRefundTransferReference> = z.object({
  kind: z.literal('checkoutRefund'),
  orderId: transferReferenceId,
  refundId: transferReferenceId,
});

/** The wallet's terms of a checkout refund (ADR 033, 077): merchant to shopper, both users, no fee, settled at once. */
export const checkoutRefundTransferTerms: Readonly<Record<CheckoutRefundTransferReference['kind'], TransferTerms>> = {
  checkoutRefund: {
    reference: checkoutRefundTransferReference,
    payer: 'user',
    payee: 'user',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'none',
  },
};

export const isCheckoutRefundReference = (reference: TransferReferenceShape): reference is CheckoutRefundTransferReference =>
  reference.kind === 'checkoutRefund';
