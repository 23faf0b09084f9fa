/**
 * The invoice a Quern user paid from their balance with this transfer ('Pay with Quern', issue 27):
 * payer to merchant, both users, no fee, settled at once with the invoice's own record of it.
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type InvoicePaymentTransferReference = { kind: 'invoicePayment'; invoiceId: string };

export const invoicePaymentTransferReference: z.ZodType<InvoicePaymentTransferReference> = z.object({
  kind: z.literal('invoicePayment'),
  invoiceId: transferReferenceId,
});

/** The wallet's terms (ADR 077): as a checkout payment's; bought MLX may pay it, and is spent first. */
export const invoicePaymentTransferTerms: Readonly<Record<InvoicePaymentTransferReference['kind'], TransferTerms>> = {
  invoicePayment: {
    reference: invoicePaymentTransferReference,
    payer: 'user',
    payee: 'user',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'spends',
  },
};

export const isInvoicePaymentReference = (reference: TransferReferenceShape): reference is InvoicePaymentTransferReference =>
  reference.kind === 'invoicePayment';
