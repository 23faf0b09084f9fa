/**
 * Records a deposit's stage on the invoice its address belongs to (issue 27). A deposit to an
 * address that is no invoice's records nothing. Safe to run again: the invoice records each
 * payment's stage once.
 */
import { isAppError } from '@quern/core';
import { findInvoiceIdByAddress, type InvoiceDeps, type InvoiceStatus, invoiceStatus, recordInvoicePayment } from '@quern/core/invoices';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import { invoicePaymentPayload } from './payload.js';

export type InvoicePaymentResult = { outcome: 'recorded'; invoiceId: string; status: InvoiceStatus } | { outcome: 'not-an-invoice' };

export async function recordDepositOnInvoice(data: unknown, deps: Pick<InvoiceDeps, 'store' | 'clock'>): Promise<InvoicePaymentResult> {
  const payload = parsePayload(invoicePaymentPayload, data);
  const invoiceId = await findInvoiceIdByAddress(deps, payload.toAddress);
  if (invoiceId === undefined) return { outcome: 'not-an-invoice' };
  try {
    const { invoice } = await recordInvoicePayment(deps, invoiceId, {
      paymentId: payload.depositId,
      route: 'network',
      amountMlx: BigInt(payload.amountMlx),
      stage: payload.stage,
    });
    return { outcome: 'recorded', invoiceId, status: invoiceStatus(invoice) };
  } catch (error) {
    // A refusal (the same deposit with other details, a settled one refused) will not change on a retry.
    if (isAppError(error) && error.code !== 'CONCURRENCY')
      throw new UnrecoverableError(`${error.messageKey} for ${payload.depositId} on ${invoiceId}`);
    throw error;
  }
}
