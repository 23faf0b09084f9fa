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
