/**
 * The shopper's history CSV (issue 28, ADR 091): a header row and one row per completed
 * transaction of the wallet in the range, oldest first (log order), read a page at a time and
 * written with backpressure as the payments export is (ADR 034), so any range streams in bounded
 * memory: one page of rows and one page of exchange rates at most.
 *
 * Columns: the time, the other party (a username, else a millix address), the kind in the
 * history's words (core/src/history/kind.ts), the amount signed by direction (a debit is
 * negative) and its fee, the posted balance right after, and the USD rate in force when the
 * transaction was recorded with the amount's USD value at that rate, signed like the amount.
 */
import type { Writable } from 'node:stream';
import { type CompletedTransaction, historyKindOf } from '@quern/core/history';
import { usdValueOf } from '@quern/core/payments';
import { createRateWalk } from '@quern/core/receipts';
import type { EventStore } from '@quern/core';
import { firstHistoryIndexFrom, HISTORY_RANGE_MARGIN_MS, readHistoryRange } from '@quern/projections';
import { stringify } from 'csv-stringify/sync';
import type { Redis } from 'ioredis';
import { inertCell, write } from '../payments/csv-export.js';

export const HISTORY_CSV_HEADER = [
  'time',
  'transaction',
  'kind',
  'counterparty',
  'amount',
  'fee',
  'balance_after',
  'usd_rate',
  'usd_value',
] as const;

export interface HistoryExport {
  walletId: string;
  fromMs: number;
  toMs: number;
  /** Tests only: a smaller page, and an observer told how many rows each read returned. */
  pageSize?: number;
  onPage?: (rows: number) => void;
}

/** The row's other party: the receiver of a debit, the sender of a credit; a username when it has one. */
function counterpartyOf(row: CompletedTransaction): string {
  const incoming = row.transaction_type === 'credit';
  const user = incoming ? row.from_user : row.to_user;
  return user?.username ?? (incoming ? row.from_address : row.to_address);
}

const signed = (debit: boolean, text: string): string => (debit && text !== '0' && text !== '0.00' ? `-${text}` : text);

export function historyCsvRow(row: CompletedTransaction, usdPerMlx: string | undefined): string[] {
  const debit = row.transaction_type === 'debit';
  const value = usdValueOf(BigInt(row.amount), usdPerMlx);
  return [
    row.transaction_date,
    row.transaction_hash,
    historyKindOf(row),
    inertCell(counterpartyOf(row)),
    signed(debit, row.amount),
    row.fee ?? '0',
    row.balance,
    usdPerMlx ?? '',
    value === null ? '' : signed(debit, value),
  ];
}

/** Writes the CSV to `out` (not ended: the caller ends it); returns the number of data rows. */
export async function writeHistoryCsv(
  redis: Redis,
  store: Pick<EventStore, 'readStream'>,
  out: Writable,
  job: HistoryExport,
): Promise<number> {
  const rates = createRateWalk(store);
  await write(out, stringify([[...HISTORY_CSV_HEADER]], { record_delimiter: 'windows' }));
  let start: number | undefined = await firstHistoryIndexFrom(redis, job.walletId, job.fromMs - HISTORY_RANGE_MARGIN_MS);
  let rows = 0;
  while (start !== undefined) {
    const page = await readHistoryRange(redis, job.walletId, { fromMs: job.fromMs, toMs: job.toMs, start, limit: job.pageSize });
    job.onPage?.(page.entries.length);
    const lines: string[][] = [];
    for (const entry of page.entries) lines.push(historyCsvRow(entry.transaction, await rates.at(entry.position)));
    if (lines.length > 0) await write(out, stringify(lines, { record_delimiter: 'windows' }));
    rows += lines.length;
    start = page.next;
  }
  return rows;
}
