/** Reads of the invoices read model (issue 27): a page of a merchant's invoice ids, newest first, or by creation time for the export. */
import { AppError } from '@quern/core';
import { INVOICES_PAGE_MAX, type InvoiceStatus } from '@quern/core/invoices';
import type { Redis } from 'ioredis';
import {
  INVOICE_TIME_DIGITS,
  invoiceIdOfTimeMember,
  merchantInvoicesByStatusKey,
  merchantInvoicesByTimeKey,
  merchantInvoicesKey,
} from './keys.js';

const unknownCursor = () => new AppError('VALIDATION', 'errors:invoicesUnknownCursor', { starting_after: 'errors:invoicesUnknownCursor' });

/**
 * `limit` invoice ids of the merchant after the invoice `startingAfter` (by creation position, so
 * invoices created while a client pages land before its cursor, never inside the walk), optionally
 * only those with `status` now. A cursor that is not one of this merchant's invoices is refused.
 */
export async function listMerchantInvoiceIds(
  redis: Redis,
  merchantUserId: string,
  { limit, startingAfter, status }: { limit: number; startingAfter?: string; status?: InvoiceStatus },
): Promise<{ ids: string[]; hasMore: boolean }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > INVOICES_PAGE_MAX) throw new RangeError(`limit must be 1 to ${INVOICES_PAGE_MAX}`);
  let max = '+inf';
  if (startingAfter) {
    // The cursor is placed by its creation position, whatever its status is now.
    const score = await redis.zscore(merchantInvoicesKey(merchantUserId), startingAfter);
    if (score === null) throw unknownCursor();
    max = `(${score}`;
  }
  const key = status === undefined ? merchantInvoicesKey(merchantUserId) : merchantInvoicesByStatusKey(merchantUserId, status);
  const ids = await redis.zrevrangebyscore(key, max, '-inf', 'LIMIT', 0, limit + 1);
  return { ids: ids.slice(0, limit), hasMore: ids.length > limit };
}

/** The most by-time members one read returns: the export's page. */
export const INVOICE_IDS_BY_TIME_READ_MAX = 1000;

/**
 * Up to `limit` of the merchant's invoice ids created from `fromMs` to `toMs` (inclusive), oldest
 * first (ties by id), strictly after the by-time member `after` when given. `last` is the last
 * member read, the next page's `after`; undefined once the range is walked (a short page).
 */
export async function listMerchantInvoiceIdsByTime(
  redis: Redis,
  merchantUserId: string,
  { fromMs, toMs, after, limit }: { fromMs: number; toMs: number; after?: string; limit: number },
): Promise<{ ids: string[]; last: string | undefined }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > INVOICE_IDS_BY_TIME_READ_MAX)
    throw new RangeError(`limit must be 1 to ${INVOICE_IDS_BY_TIME_READ_MAX}`);
  if (!Number.isSafeInteger(fromMs) || !Number.isSafeInteger(toMs)) throw new RangeError('the time range must be whole milliseconds');
  const pad = (ms: number) => String(Math.max(0, ms)).padStart(INVOICE_TIME_DIGITS, '0');
  const min = after === undefined ? `[${pad(fromMs)}:` : `(${after}`;
  // Every member of a time t <= toMs sorts below "<toMs + 1>:" (same width, smaller digits).
  const members = await redis.zrangebylex(merchantInvoicesByTimeKey(merchantUserId), min, `(${pad(toMs + 1)}:`, 'LIMIT', 0, limit);
  return { ids: members.map(invoiceIdOfTimeMember), last: members.length < limit ? undefined : members[members.length - 1] };
}
