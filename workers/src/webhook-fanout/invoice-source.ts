/**
 * The invoice webhooks (issue 27): their payload is the invoice as the merchant API answers it,
 * as it was right after the event that changed its status. The stream is folded up to that
 * event's revision, never to its end, so a late fan-out of `invoice.processing` does not describe
 * an invoice paid since (ADR 071). They go to the invoice's merchant. Which event reports which
 * type is the catalogue's (core/src/webhooks/catalogue.ts); this reads one stream, once.
 */
import { type InvoiceEvent, invoiceStream, readInvoice, toInvoiceEvent, toInvoiceOutput } from '@quern/core/invoices';
import type { InvoiceWebhookType } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import type { WebhookReportReader } from './source.js';

type InvoiceChange = Exclude<InvoiceEvent, { type: 'InvoiceCreated' }>;

/** When the event happened, as its own data says. */
function occurredAt(event: InvoiceChange): string {
  switch (event.type) {
    case 'InvoicePaymentSeen':
      return event.data.seenAt;
    case 'InvoicePaymentSettled':
      return event.data.settledAt;
    case 'InvoicePaymentFailed':
      return event.data.failedAt;
    case 'InvoiceExpired':
      return event.data.expiredAt;
    case 'InvoiceVoided':
      return event.data.voidedAt;
    // Refund events change no status: the catalogue reports none of them (a refund's outcome is its payout's webhook).
    case 'InvoiceRefundCreated':
      return event.data.createdAt;
    case 'InvoiceRefundClaimed':
      return event.data.claimedAt;
    case 'InvoiceRefundCanceled':
      return event.data.canceledAt;
    case 'InvoiceRefundEmailSent':
      return event.data.sentAt;
    default: {
      const unknown: never = event;
      throw new Error(`${(unknown as InvoiceEvent).type} reports no webhook`);
    }
  }
}

/** The report of an invoice event the catalogue names for one of its invoice types. */
export const invoiceWebhookReport: WebhookReportReader<InvoiceWebhookType> = async ({ store, publicUrl }, recorded) => {
  const event = toInvoiceEvent(recorded);
  const at = `${recorded.streamId}@${recorded.revision}`;
  if (!event || event.type === 'InvoiceCreated' || recorded.streamId !== invoiceStream(event.data.invoiceId))
    throw new UnrecoverableError(`Malformed ${recorded.type} at ${at}`);
  const invoice = await readInvoice({ store }, event.data.invoiceId, { upToRevision: recorded.revision });
  if (!invoice) throw new UnrecoverableError(`No invoice at ${at}`);
  const data = toInvoiceOutput(invoice, publicUrl);
  // The fold up to this event must reach the status the event recorded; anything else means the
  // stream was not read up to it, and the webhook would describe another moment.
  if (data.status !== event.data.status)
    throw new UnrecoverableError(`The invoice folds to ${data.status} at ${at}, where its event says ${event.data.status}`);
  return { merchantUserId: invoice.merchantUserId, data, occurredAt: occurredAt(event) };
};
