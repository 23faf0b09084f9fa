/** MLX a merchant gave back to the shopper of a paid checkout order (ADR 033): merchant → shopper, fee 0. */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';

export type CheckoutRefundTransferReference = { kind: 'checkoutRefund'; orderId: string; refundId: string };

export const checkoutRefundTransferReference: z.ZodType<CheckoutRefundTransferReference> = z.object({
  kind: z.literal('checkoutRefund'),
  orderId: transferReferenceId,
  refundId: transferReferenceId,
});

export const isCheckoutRefundReference = (reference: TransferReferenceShape): reference is CheckoutRefundTransferReference =>
  reference.kind === 'checkoutRefund';
