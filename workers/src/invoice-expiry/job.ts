/**
 * An invoice's expiry (issue 27): waits until its time, then expires it unless it is paid or void.
 * A payment seen in time that is still settling keeps it open: the job looks again shortly, and
 * expires it only if that payment fails and the amount is still not there.
 */
import { expireInvoice, invoiceNotFound, invoiceStatus, type InvoiceDeps, type InvoiceStatus, readInvoice } from '@quern/core/invoices';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import type { ResumableJob } from '../job/resumable.js';
import { invoiceExpiryPayload } from './payload.js';

/** How soon a job waiting for a payment in flight looks again. */
export const INVOICE_EXPIRY_RECHECK_MS = 30_000;

export type InvoiceExpiryResult = { outcome: 'expired' } | { outcome: 'ended'; status: InvoiceStatus };

export async function expireInvoiceWhenDue(job: ResumableJob, deps: Pick<InvoiceDeps, 'store' | 'clock'>): Promise<InvoiceExpiryResult> {
  const { invoiceId, expiresAt } = parsePayload(invoiceExpiryPayload, job.data);
  const nowMs = deps.clock.now().getTime();
  const dueMs = Date.parse(expiresAt);
  if (nowMs < dueMs) return job.runAgainAt(dueMs);
  const invoice = await readInvoice(deps, invoiceId);
  // The job comes from this invoice's InvoiceCreated: without it no retry can find the invoice.
  if (!invoice) throw new UnrecoverableError(invoiceNotFound().messageKey);
  if (invoiceStatus(invoice) === 'processing') return job.runAgainAt(nowMs + INVOICE_EXPIRY_RECHECK_MS);
  const { invoice: after } = await expireInvoice(deps, invoiceId);
  const status = invoiceStatus(after);
  return status === 'expired' ? { outcome: 'expired' } : { outcome: 'ended', status };
}
