/**
 * The invoices CSV: a header row and one row per invoice created in the range, oldest first. The
 * read model gives the ids by creation time a page at a time; each invoice is then folded from its
 * own short stream, so a row says what the log says now (its status, what was paid). At most one
 * page of invoices is held, and no page is read while the destination has not drained, so any
 * range streams in bounded memory. Cells are escaped by csv-stringify (RFC 4180, CRLF); the cells
 * the merchant's shop chooses, reference and description, are made inert for spreadsheets the same
 * way the payments export makes the shopper inert.
 */
import type { Writable } from 'node:stream';
import type { InvoiceOutput } from '@quern/core/invoices';
import { listMerchantInvoiceIdsByTime } from '@quern/projections';
import { stringify } from 'csv-stringify/sync';
import type { Redis } from 'ioredis';
import { inertCell, write } from '../payments/csv-export.js';

export const INVOICES_CSV_HEADER = [
  'invoice',
  'created',
  'status',
  'currency',
  'amount_mlx',
  'amount_usd',
  'usd_rate',
  'paid_mlx',
  'overpaid_mlx',
  'reference',
  'description',
  'paid_at',
] as const;
/** Invoices read and folded per round: also the most the exporter holds in memory at once. */
export const INVOICES_EXPORT_PAGE_SIZE = 200;

export interface InvoicesExport {
  merchantUserId: string;
  fromMs: number;
  toMs: number;
  /** Folds one invoice from its stream as the API answers it; undefined when it is not this merchant's. */
  readInvoice: (invoiceId: string) => Promise<InvoiceOutput | undefined>;
  /** Tests only: a smaller page. */
  pageSize?: number;
}

const rowOf = (invoice: InvoiceOutput): string[] => [
  invoice.id,
  invoice.created_at,
  invoice.status,
  invoice.currency,
  invoice.amount_mlx,
  invoice.amount_usd ?? '',
  invoice.usd_rate ?? '',
  invoice.amount_paid_mlx,
  invoice.amount_overpaid_mlx,
  inertCell(invoice.reference ?? ''),
  inertCell(invoice.description ?? ''),
  invoice.paid_at ?? '',
];

/** Writes the CSV to `out` (not ended: the caller ends it); returns the number of data rows. */
export async function writeInvoicesCsv(redis: Redis, out: Writable, job: InvoicesExport): Promise<number> {
  const limit = job.pageSize ?? INVOICES_EXPORT_PAGE_SIZE;
  await write(out, stringify([[...INVOICES_CSV_HEADER]], { record_delimiter: 'windows' }));
  let after: string | undefined;
  let rows = 0;
  for (;;) {
    const page = await listMerchantInvoiceIdsByTime(redis, job.merchantUserId, { fromMs: job.fromMs, toMs: job.toMs, after, limit });
    const invoices = (await Promise.all(page.ids.map(job.readInvoice))).filter((invoice) => invoice !== undefined);
    if (invoices.length > 0) await write(out, stringify(invoices.map(rowOf), { record_delimiter: 'windows' }));
    rows += invoices.length;
    if (page.last === undefined) return rows;
    after = page.last;
  }
}
