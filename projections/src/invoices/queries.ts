/** Reads of the invoices read model (issue 27): a page of a merchant's invoice ids, newest first. */
import { AppError } from '@quern/core';
import { INVOICES_PAGE_MAX, type InvoiceStatus } from '@quern/core/invoices';
import type { Redis } from 'ioredis';
import { merchantInvoicesByStatusKey, merchantInvoicesKey } from './keys.js';

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
