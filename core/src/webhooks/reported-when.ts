/**
 * The conditions under which a recorded event reports its webhook type, for the catalogue's events
 * that also happen without reporting one. Each is decided from the event alone (its type and
 * data), without reading a stream, so the dispatcher's live rules and a re-derivation after a
 * Redis loss agree on which events ask for a fan-out.
 */
import { type InvoiceStatus, toInvoiceEvent } from '../invoices/events.js';
import { payoutIdOfTransfer } from '../payouts/events.js';

/** A recorded event as far as the conditions read it. */
export type ReportedEvent = { type: string; data: Record<string, unknown> };

/** A posted transfer completes a payout only when it is a payout's transfer; any other posted send reports nothing. */
export const isPayoutTransfer = ({ data }: ReportedEvent): boolean => payoutIdOfTransfer(String(data.transferId ?? '')) !== undefined;

/**
 * An invoice event reports `invoice.<status>` only when it changed the invoice's status to that
 * one: a second payment seen while processing, or an overpayment once paid, reports nothing more.
 * An event that does not read as an invoice event reports nothing (the fan-out's reader would
 * refuse it anyway).
 */
export const changesInvoiceStatusTo =
  (status: InvoiceStatus) =>
  (recorded: ReportedEvent): boolean => {
    const event = toInvoiceEvent(recorded);
    return event !== undefined && event.type !== 'InvoiceCreated' && event.data.status === status && event.data.previousStatus !== status;
  };
