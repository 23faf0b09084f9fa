/** The checkout order a shopper paid a merchant with this transfer (ADR 029). */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';

export type CheckoutTransferReference = { kind: 'checkout'; orderId: string };

export const checkoutTransferReference: z.ZodType<CheckoutTransferReference> = z.object({
  kind: z.literal('checkout'),
  orderId: transferReferenceId,
});

export const isCheckoutReference = (reference: TransferReferenceShape): reference is CheckoutTransferReference =>
  reference.kind === 'checkout';
