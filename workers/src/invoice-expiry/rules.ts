/**
 * The invoice expiry's dispatch rule (issue 27): every invoice created asks for its expiry; its
 * expiry or its void records it as done. A paid invoice's expiry runs once and records nothing.
 */
import { type InvoiceEvent, toInvoiceEvent } from '@quern/core/invoices';
import { typedRule } from '../job/dispatch-rule.js';
import { INVOICE_EXPIRY_JOB_NAME, INVOICE_EXPIRY_QUEUE, invoiceExpiryJobId, invoiceExpiryPayload } from './payload.js';

type InvoiceEventOf<T extends InvoiceEvent['type']> = Extract<InvoiceEvent, { type: T }>;

export const invoiceExpiryRule = typedRule<InvoiceEventOf<'InvoiceCreated'>, InvoiceEventOf<'InvoiceExpired' | 'InvoiceVoided'>>({
  read: toInvoiceEvent,
  request: 'InvoiceCreated',
  completions: ['InvoiceExpired', 'InvoiceVoided'],
  queue: INVOICE_EXPIRY_QUEUE,
  name: INVOICE_EXPIRY_JOB_NAME,
  jobId: ({ data }) => invoiceExpiryJobId(data.invoiceId),
  payload: ({ data }) => invoiceExpiryPayload.parse({ invoiceId: data.invoiceId, expiresAt: data.expiresAt }),
  matchCompletion: ({ data }) => invoiceExpiryJobId(data.invoiceId),
});
