/**
 * A wallet's completed transactions between two instants, oldest first, a page at a time (the
 * shopper's CSV export, ADR 091). The history's score is the log position, not a time, so the
 * first row of the range is found by a binary search over the rows' indexes on their dates
 * (about 20 reads for a million rows), and the rows are then read forward until one is past the
 * range. A row's date is stamped when its event is decided, just before it is appended, so dates
 * follow log order to within the time an append takes; both searches keep a margin of
 * HISTORY_RANGE_MARGIN_MS around the range and every row is then checked against the range itself.
 */
import type { Redis } from 'ioredis';
import type { StoredCompletedTransaction } from './items.js';
import { walletHistoryKey } from './keys.js';
import { completedTransactionsOf, type HistoryEntry } from './queries.js';

/** How far a row's date may stray from log order and still be found: far more than any append takes. */
export const HISTORY_RANGE_MARGIN_MS = 60 * 60 * 1000;
/** Rows read per ZRANGE while exporting; also the most a page holds. */
export const HISTORY_RANGE_PAGE_MAX = 500;

export interface HistoryRangePage {
  entries: HistoryEntry[];
  /** Where the next page starts (a row index), or undefined when the range is done. */
  next: number | undefined;
}

const dateOf = (member: string): number => Date.parse((JSON.parse(member) as StoredCompletedTransaction).transaction_date);

/** The index of the first row dated at or after `ms` (the row count when there is none), by binary search. */
export async function firstHistoryIndexFrom(redis: Redis, walletId: string, ms: number): Promise<number> {
  const key = walletHistoryKey(walletId);
  let low = 0;
  let high = await redis.zcard(key);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const [member] = await redis.zrange(key, String(middle), String(middle));
    // A row that vanished (a rebuild under way) ends the search where it is.
    if (member === undefined) return middle;
    if (dateOf(member) < ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The page of rows in [fromMs, toMs] starting at row index `start` (from firstHistoryIndexFrom with
 * the margin taken off `fromMs`). A page may hold fewer rows than it read, or none, when rows near
 * the range's edges fall outside it; `next` says whether to read on.
 */
export async function readHistoryRange(
  redis: Redis,
  walletId: string,
  range: { fromMs: number; toMs: number; start: number; limit?: number },
): Promise<HistoryRangePage> {
  const limit = Math.min(range.limit ?? HISTORY_RANGE_PAGE_MAX, HISTORY_RANGE_PAGE_MAX);
  if (!Number.isSafeInteger(range.start) || range.start < 0 || limit < 1) throw new RangeError('readHistoryRange: bad page');
  const reply = await redis.zrange(walletHistoryKey(walletId), String(range.start), String(range.start + limit - 1), 'WITHSCORES');
  const inRange: { stored: StoredCompletedTransaction; position: bigint }[] = [];
  let past = false;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const stored = JSON.parse(reply[i] as string) as StoredCompletedTransaction;
    const ms = Date.parse(stored.transaction_date);
    if (ms > range.toMs + HISTORY_RANGE_MARGIN_MS) {
      past = true;
      break;
    }
    if (ms >= range.fromMs && ms <= range.toMs) inRange.push({ stored, position: BigInt(reply[i + 1] as string) });
  }
  const transactions = await completedTransactionsOf(
    redis,
    inRange.map((row) => row.stored),
  );
  const entries = transactions.map((transaction, index) => ({
    transaction,
    position: (inRange[index] as (typeof inRange)[number]).position,
  }));
  const read = reply.length / 2;
  return { entries, next: past || read < limit ? undefined : range.start + read };
}
