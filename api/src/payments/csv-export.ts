/**
 * The payments CSV (ADR 034): a header row and one row per payment in created order, read from
 * Redis a page at a time and written with backpressure, so a year of payments streams in bounded
 * memory: at most one page is held, and no page is read while the destination has not drained.
 * Cells are escaped by csv-stringify (RFC 4180); the one cell a shopper chooses, the username, is
 * made inert for spreadsheets (a leading ' before = + - @, tab or carriage return).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Payment } from '@quern/core/payments';
import { readMerchantPaymentsByTime } from '@quern/projections';
import { stringify } from 'csv-stringify/sync';
import type { Redis } from 'ioredis';

export const CSV_HEADER = ['order', 'created', 'amount', 'refunded', 'currency', 'usd_rate', 'usd_value', 'shopper'] as const;
/** Rows read from Redis per round trip; also the most the exporter holds in memory at once. */
export const EXPORT_PAGE_SIZE = 500;

export interface PaymentsExport {
  merchantUserId: string;
  fromMs: number;
  toMs: number;
  /** Tests only: a smaller page, and an observer told how many rows each read returned. */
  pageSize?: number;
  onPage?: (rows: number) => void;
}

/** Spreadsheets run a cell that starts with these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
export const inertCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

const rowOf = (p: Payment): string[] => [
  p.id,
  p.created_at,
  p.amount,
  p.amount_refunded,
  p.currency,
  p.usd_rate ?? '',
  p.usd_value ?? '',
  inertCell(p.shopper_username ?? ''),
];

/** Resolves when `out` drained; rejects when it closed or failed first (the client went away). */
async function drained(out: Writable): Promise<void> {
  const gone = new AbortController();
  const closed = once(out, 'close', { signal: gone.signal }).then(() => {
    throw new Error('The export destination closed before the export ended');
  });
  try {
    await Promise.race([once(out, 'drain', { signal: gone.signal }), closed]);
  } finally {
    gone.abort();
    closed.catch(() => undefined);
  }
}

/** Writes `text`, waiting for the destination to drain when its buffer is full (shared with the invoices export). */
export async function write(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new Error('The export destination closed before the export ended');
  if (!out.write(text)) await drained(out);
}

/** Writes the CSV to `out` (not ended: the caller ends it); returns the number of data rows. */
export async function writePaymentsCsv(redis: Redis, out: Writable, job: PaymentsExport): Promise<number> {
  const limit = job.pageSize ?? EXPORT_PAGE_SIZE;
  await write(out, stringify([[...CSV_HEADER]], { record_delimiter: 'windows' }));
  let after: string | undefined;
  let rows = 0;
  for (;;) {
    const page = await readMerchantPaymentsByTime(redis, job.merchantUserId, { fromMs: job.fromMs, toMs: job.toMs, after, limit });
    job.onPage?.(page.payments.length);
    if (page.payments.length > 0) await write(out, stringify(page.payments.map(rowOf), { record_delimiter: 'windows' }));
    rows += page.payments.length;
    // A short page is the last one; `last` also moves past members whose record is missing.
    if (page.last === undefined) return rows;
    after = page.last;
  }
}
