/** The checkout order a shopper paid a merchant with this transfer (ADR 029). */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type CheckoutTransferReference = { kind: 'checkout'; orderId: string };

export const checkoutTransferReference: z.ZodType<CheckoutTransferReference> = z.object({
  kind: z.literal('checkout'),
  orderId: transferReferenceId,
});

/**
 * The wallet's terms of a checkout payment (ADR 029, 077): shopper to merchant, both users, no fee
 * (the shopper pays exactly the shop's price), settled at once; bought MLX may pay it, and is
 * spent first.
 */
export const checkoutTransferTerms: Readonly<Record<CheckoutTransferReference['kind'], TransferTerms>> = {
  checkout: {
    reference: checkoutTransferReference,
    payer: 'user',
    payee: 'user',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'spends',
  },
};

export const isCheckoutReference = (reference: TransferReferenceShape): reference is CheckoutTransferReference =>
  reference.kind === 'checkout';
