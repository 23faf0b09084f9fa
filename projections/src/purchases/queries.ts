/** Reads of the purchases read model: the open orders in a time range, oldest first, bounded. */
import type { Redis } from 'ioredis';
import { PURCHASES_AWAITING_CAPTURE_KEY, PURCHASES_AWAITING_CREDIT_KEY } from './keys.js';

/** Times in ms since the epoch, inclusive; -Infinity/Infinity for an open end. `limit` bounds the answer. */
export interface OpenPurchaseRange {
  fromMs: number;
  toMs: number;
  limit: number;
}

/** The upper bound on one read; callers page by time. */
export const OPEN_PURCHASES_LIMIT_MAX = 10_000;

const bound = (ms: number): string => (ms === Number.NEGATIVE_INFINITY ? '-inf' : ms === Number.POSITIVE_INFINITY ? '+inf' : String(ms));

async function range(redis: Redis, key: string, { fromMs, toMs, limit }: OpenPurchaseRange): Promise<string[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > OPEN_PURCHASES_LIMIT_MAX)
    throw new RangeError(`limit must be an integer from 1 to ${OPEN_PURCHASES_LIMIT_MAX}`);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new RangeError('the time range must be numbers');
  return redis.zrangebyscore(key, bound(fromMs), bound(toMs), 'LIMIT', 0, limit);
}

/** Orders without a recorded capture, ordered within the range. */
export const listPurchasesAwaitingCapture = (redis: Redis, r: OpenPurchaseRange): Promise<string[]> =>
  range(redis, PURCHASES_AWAITING_CAPTURE_KEY, r);

/** Captured orders neither credited nor refunded, captured within the range. */
export const listPurchasesAwaitingCredit = (redis: Redis, r: OpenPurchaseRange): Promise<string[]> =>
  range(redis, PURCHASES_AWAITING_CREDIT_KEY, r);
