/**
 * Reads of the payments read model in the shapes of core's payments contracts. Each read
 * costs a bounded number of round trips whatever the merchant's history: one range read, one
 * pipeline of records and refunds, one pipeline of usernames (resolved at read time from the users
 * read model; usernames never change, so nothing here has to be rewritten).
 */
import { AppError } from '@quern/core';
import { PAYMENTS_PAGE_MAX, type Payment, type PaymentsList, paymentStatusOf, usdValueOf } from '@quern/core/payments';
import type { Redis } from 'ioredis';
import { userKey } from '../users/keys.js';
import { merchantPaymentsByTimeKey, merchantPaymentsKey, orderIdOfTimeMember, paymentKey, paymentRefundsKey, TIME_DIGITS } from './keys.js';

/** The largest page any reader may ask for (the export reads in pages of this size or less). */
export const PAYMENT_RECORDS_READ_MAX = 1_000;

interface StoredRefund {
  amount: string;
  created_at: string;
  position: string;
}

const unknownCursor = () => new AppError('VALIDATION', 'errors:paymentsUnknownCursor', { starting_after: 'errors:paymentsUnknownCursor' });

function repliesOf(replies: [Error | null, unknown][] | null): unknown[] {
  if (replies === null) throw new Error('The read of the payments was aborted');
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/**
 * The merchant's payments, newest first: `limit` of them after the payment `startingAfter` (by
 * log position, so payments that arrive while a client pages land before its cursor and are
 * neither repeated nor skipped). A cursor that is not one of this merchant's payments is refused.
 */
export async function listMerchantPayments(
  redis: Redis,
  merchantUserId: string,
  { limit, startingAfter }: { limit: number; startingAfter?: string | null },
): Promise<PaymentsList> {
  if (!Number.isInteger(limit) || limit < 1 || limit > PAYMENTS_PAGE_MAX) throw new RangeError(`limit must be 1 to ${PAYMENTS_PAGE_MAX}`);
  const key = merchantPaymentsKey(merchantUserId);
  let max = '+inf';
  if (startingAfter) {
    const score = await redis.zscore(key, startingAfter);
    if (score === null) throw unknownCursor();
    max = `(${score}`;
  }
  const ids = await redis.zrevrangebyscore(key, max, '-inf', 'LIMIT', 0, limit + 1);
  const page = ids.slice(0, limit);
  const data = await readPayments(redis, page);
  const hasMore = ids.length > limit;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? (page[page.length - 1] ?? null) : null };
}

/**
 * Up to `limit` of the merchant's payments created from `fromMs` to `toMs` (inclusive), in created
 * order, strictly after the by-time member `after` when given; `last` resumes the next page.
 */
export async function readMerchantPaymentsByTime(
  redis: Redis,
  merchantUserId: string,
  { fromMs, toMs, after, limit }: { fromMs: number; toMs: number; after?: string; limit: number },
): Promise<{ payments: Payment[]; last: string | undefined }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > PAYMENT_RECORDS_READ_MAX)
    throw new RangeError(`limit must be 1 to ${PAYMENT_RECORDS_READ_MAX}`);
  if (!Number.isSafeInteger(fromMs) || !Number.isSafeInteger(toMs)) throw new RangeError('the time range must be whole milliseconds');
  const pad = (ms: number) => String(Math.max(0, ms)).padStart(TIME_DIGITS, '0');
  const min = after === undefined ? `[${pad(fromMs)}:` : `(${after}`;
  // Every member of a time t <= toMs sorts below "<toMs + 1>:" (same width, smaller digits).
  const members = await redis.zrangebylex(merchantPaymentsByTimeKey(merchantUserId), min, `(${pad(toMs + 1)}:`, 'LIMIT', 0, limit);
  return { payments: await readPayments(redis, members.map(orderIdOfTimeMember)), last: members[members.length - 1] };
}

/** The payments of these order ids, in the same order; an id without a record is left out. */
async function readPayments(redis: Redis, orderIds: readonly string[]): Promise<Payment[]> {
  if (orderIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of orderIds) pipeline.hgetall(paymentKey(id)).hgetall(paymentRefundsKey(id));
  const replies = repliesOf(await pipeline.exec());
  const records = orderIds.map((id, i) => ({
    id,
    record: replies[2 * i] as Record<string, string>,
    refunds: replies[2 * i + 1] as Record<string, string>,
  }));
  const found = records.filter((r) => r.record.amount !== undefined);
  const usernames = await usernamesOf(
    redis,
    found.map((r) => r.record.shopper ?? ''),
  );
  return found.map(({ id, record, refunds }) => paymentOf(id, record, refunds, usernames));
}

function paymentOf(
  id: string,
  record: Record<string, string>,
  storedRefunds: Record<string, string>,
  usernames: Map<string, string>,
): Payment {
  const refunds = Object.entries(storedRefunds)
    .map(([refundId, json]) => ({ refundId, ...(JSON.parse(json) as StoredRefund) }))
    .sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
  const amount = BigInt(record.amount ?? '0');
  const refunded = refunds.reduce((sum, r) => sum + BigInt(r.amount), 0n);
  const rate = record.usd_rate ?? null;
  return {
    id,
    object: 'payment',
    status: paymentStatusOf(amount, refunded),
    amount: amount.toString(),
    amount_refunded: refunded.toString(),
    currency: 'MLX',
    usd_rate: rate,
    usd_value: usdValueOf(amount, rate),
    shopper_username: usernames.get(record.shopper ?? '') ?? null,
    created_at: record.created_at ?? '',
    refunds: refunds.map((r) => ({ id: r.refundId, amount: r.amount, created_at: r.created_at })),
  };
}

/** One pipelined HGET per distinct shopper. */
async function usernamesOf(redis: Redis, userIds: readonly string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(userIds.filter((id) => id.length > 0))];
  const usernames = new Map<string, string>();
  if (distinct.length === 0) return usernames;
  const pipeline = redis.pipeline();
  for (const id of distinct) pipeline.hget(userKey(id), 'username');
  const replies = repliesOf(await pipeline.exec());
  distinct.forEach((id, i) => {
    const name = replies[i];
    if (typeof name === 'string' && name.length > 0) usernames.set(id, name);
  });
  return usernames;
}

/** One of the merchant's payments now, exactly as an item of the list; undefined when it is none of theirs. */
export async function getMerchantPayment(redis: Redis, merchantUserId: string, orderId: string): Promise<Payment | undefined> {
  if ((await redis.hget(paymentKey(orderId), 'merchant')) !== merchantUserId) return undefined;
  const [payment] = await readPayments(redis, [orderId]);
  return payment;
}

/** A shopper's username as the list shows it (resolved from the users read model), or null. */
export async function shopperUsernameOf(redis: Redis, shopperUserId: string): Promise<string | null> {
  return (await usernamesOf(redis, [shopperUserId])).get(shopperUserId) ?? null;
}
