/** The refund claim e-mail's dispatch rule: one per refund of an invoice that has the payer's e-mail. */
import { type InvoiceEvent, toInvoiceEvent } from '@quern/core/invoices';
import { typedRule } from '../job/dispatch-rule.js';
import {
  INVOICE_REFUND_EMAIL_JOB_NAME,
  INVOICE_REFUND_EMAIL_QUEUE,
  invoiceRefundEmailJobId,
  invoiceRefundEmailPayload,
} from './payload.js';

type InvoiceEventOf<T extends InvoiceEvent['type']> = Extract<InvoiceEvent, { type: T }>;

export const invoiceRefundEmailRule = typedRule<InvoiceEventOf<'InvoiceRefundCreated'>, InvoiceEventOf<'InvoiceRefundEmailSent'>>({
  read: toInvoiceEvent,
  request: 'InvoiceRefundCreated',
  completions: ['InvoiceRefundEmailSent'],
  queue: INVOICE_REFUND_EMAIL_QUEUE,
  name: INVOICE_REFUND_EMAIL_JOB_NAME,
  jobId: ({ data }) =>
    invoiceRefundEmailJobId(invoiceRefundEmailPayload.parse({ invoiceId: data.invoiceId, refundId: data.refundId }).refundId),
  payload: ({ data }) => invoiceRefundEmailPayload.parse({ invoiceId: data.invoiceId, refundId: data.refundId }),
  matchCompletion: ({ data }) => invoiceRefundEmailJobId(data.refundId),
  // Decided when the refund was created, from the invoice: only an invoice with the payer's e-mail mails the link.
  needsJob: ({ data }) => data.notifyByEmail,
});
