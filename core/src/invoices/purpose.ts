/** An invoice paid from a Quern balance, in the history (issue 27): the invoice it paid. */
import { z } from 'zod';
import { purposeId } from '../wallet/purpose.js';

export interface InvoicePaymentPurpose {
  kind: 'invoice_payment';
  invoice_id: string;
}

export const invoicePaymentPurposeSchema = z.object({ kind: z.literal('invoice_payment'), invoice_id: purposeId });
