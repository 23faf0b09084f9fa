/**
 * The index from an invoice's address to the invoice (issue 27, ADR 080): one stream per address,
 * `invoice-address-<address>`, holding one InvoiceAddressAssigned, appended with the invoice's
 * InvoiceCreated in one atomic call (handlers.ts). The invoice-payment job finds the invoice of a
 * deposit through it, and the audit reads it to know which invoice an address belongs to.
 *
 * Kept apart from handlers.ts so that the audit rule, which the web's account page also loads
 * through the list of money capabilities, does not pull in the command pipeline. handlers.ts
 * spells the same stream and type; the invoices' property test audits what it writes, so the two
 * cannot drift apart unnoticed.
 */
import { z } from 'zod';
import { INVOICE_ID_PATTERN } from './events.js';

export const INVOICE_ADDRESS_STREAM_PREFIX = 'invoice-address-';
export const INVOICE_ADDRESS_ASSIGNED = 'InvoiceAddressAssigned';

export const isInvoiceAddressStream = (streamId: string): boolean => streamId.startsWith(INVOICE_ADDRESS_STREAM_PREFIX);

const assignment = z.object({ address: z.string().min(1).max(120), invoiceId: z.string().regex(INVOICE_ID_PATTERN) });

/** The address and its invoice, or undefined when the record is not a well-formed assignment of its own stream's address. */
export function toInvoiceAddressAssignment(record: {
  streamId: string;
  type: string;
  data: unknown;
}): { address: string; invoiceId: string } | undefined {
  if (record.type !== INVOICE_ADDRESS_ASSIGNED) return undefined;
  const parsed = assignment.safeParse(record.data);
  if (!parsed.success || record.streamId !== `${INVOICE_ADDRESS_STREAM_PREFIX}${parsed.data.address}`) return undefined;
  return { address: parsed.data.address, invoiceId: parsed.data.invoiceId };
}
