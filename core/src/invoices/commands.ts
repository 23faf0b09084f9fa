/** What callers ask of an invoice (issue 27); the decider answers with events or a refusal. */
import type { InvoicePaymentRoute, InvoiceTerms } from './events.js';

export interface CreateInvoice {
  type: 'CreateInvoice';
  data: { invoiceId: string; merchantUserId: string; address: string; terms: InvoiceTerms };
}

/** A payment to the invoice reached a stage: seen on the network, stable (or a Quern transfer, settled at once), or refused by the network. */
export interface RecordInvoicePayment {
  type: 'RecordInvoicePayment';
  data: { paymentId: string; route: InvoicePaymentRoute; amountMlx: bigint; stage: 'seen' | 'settled' | 'failed' };
}

/** Run by the expiry job at (or after) the invoice's expiry. */
export interface ExpireInvoice {
  type: 'ExpireInvoice';
  data: Record<string, never>;
}

export interface VoidInvoice {
  type: 'VoidInvoice';
  data: { merchantUserId: string };
}

export type InvoiceCommand = CreateInvoice | RecordInvoicePayment | ExpireInvoice | VoidInvoice;
