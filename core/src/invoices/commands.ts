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

/**
 * The merchant refunds what reached the invoice (ADR 087): `amountMlx`, or all that is still
 * refundable when undefined. `failedRefundIds` are earlier refunds whose payouts failed (read from
 * the payouts): they moved nothing, so they hold nothing.
 */
export interface CreateInvoiceRefund {
  type: 'CreateInvoiceRefund';
  data: { refundId: string; merchantUserId: string; amountMlx?: bigint; failedRefundIds: readonly string[] };
}

/** The payer claims a refund through its link; the payout named here sends it (appended in the same call). */
export interface ClaimInvoiceRefund {
  type: 'ClaimInvoiceRefund';
  data: { refundId: string; payoutId: string; toAddress: string };
}

export interface CancelInvoiceRefund {
  type: 'CancelInvoiceRefund';
  data: { refundId: string; merchantUserId: string };
}

export interface RecordInvoiceRefundEmailSent {
  type: 'RecordInvoiceRefundEmailSent';
  data: { refundId: string; messageId: string };
}

export type InvoiceRefundCommand = CreateInvoiceRefund | ClaimInvoiceRefund | CancelInvoiceRefund | RecordInvoiceRefundEmailSent;

export type InvoiceCommand = CreateInvoice | RecordInvoicePayment | ExpireInvoice | VoidInvoice | InvoiceRefundCommand;
