/** The invoice-expiry job's data (issue 27): which invoice, and when it runs out of time. */
import { INVOICE_ID_PATTERN } from '@quern/core/invoices';
import { z } from 'zod';

export const INVOICE_EXPIRY_QUEUE = 'invoice-expiry';
export const INVOICE_EXPIRY_JOB_NAME = 'expire-invoice';

export const invoiceExpiryJobId = (invoiceId: string): string => `invoice-expiry-${invoiceId}`;

export const invoiceExpiryPayload = z.object({ invoiceId: z.string().regex(INVOICE_ID_PATTERN), expiresAt: z.iso.datetime() }).strict();
export type InvoiceExpiryPayload = z.infer<typeof invoiceExpiryPayload>;
