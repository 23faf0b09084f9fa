/** The refund claim e-mail job's data: the invoice and the refund only; the address and figures come from the log. */
import { INVOICE_ID_PATTERN, INVOICE_REFUND_ID_PATTERN } from '@quern/core/invoices';
import { z } from 'zod';

export const INVOICE_REFUND_EMAIL_QUEUE = 'invoice-refund-email';
export const INVOICE_REFUND_EMAIL_JOB_NAME = 'send-invoice-refund-email';

export const invoiceRefundEmailJobId = (refundId: string): string => `invoice-refund-email-${refundId}`;

export const invoiceRefundEmailPayload = z
  .object({ invoiceId: z.string().regex(INVOICE_ID_PATTERN), refundId: z.string().regex(INVOICE_REFUND_ID_PATTERN) })
  .strict();

/** The mail's Message-ID key: Message-IDs allow '.', refund ids hold '_' but never '.', so the swap is one-to-one. */
export const invoiceRefundMessageKey = (refundId: string): string => `invoice-refund-${refundId.replaceAll('_', '.')}`;
