/**
 * Key names of the invoices read model (issue 27), all under rm: so a rebuild finds them. They are
 * stored data: renaming one would hide every merchant's invoices until a rebuild.
 */
import type { InvoiceStatus } from '@quern/core/invoices';

/** Sorted set: invoice id -> log position of its InvoiceCreated; the list's cursor order (newest first). */
export const merchantInvoicesKey = (merchantUserId: string): string => `rm:merchant-invoices:${merchantUserId}`;
/** The same, only the invoices with this status now: the list's `status` filter. */
export const merchantInvoicesByStatusKey = (merchantUserId: string, status: InvoiceStatus): string =>
  `rm:merchant-invoices:${merchantUserId}:${status}`;
/**
 * Sorted set, every score 0: `<created ms, 15 digits>:<invoice id>`, so ZRANGE BYLEX walks the
 * merchant's invoices in created order (the CSV export's range) and a page resumes strictly after
 * its last member, ties broken by invoice id. The time is the event's own `createdAt`, so a rebuild
 * writes the same members.
 */
export const merchantInvoicesByTimeKey = (merchantUserId: string): string => `rm:merchant-invoices-by-time:${merchantUserId}`;

/** Milliseconds as 15 digits: enough until the year 33658, and lexical order is numeric order. */
export const INVOICE_TIME_DIGITS = 15;
export const invoiceTimeMember = (ms: number, invoiceId: string): string => `${String(ms).padStart(INVOICE_TIME_DIGITS, '0')}:${invoiceId}`;
/** The invoice id of a by-time member. */
export const invoiceIdOfTimeMember = (member: string): string => member.slice(INVOICE_TIME_DIGITS + 1);
