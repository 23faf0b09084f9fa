/**
 * Reads of the merchant events read model: the entries after a cursor, oldest first, of some feed
 * types. The sets and the runner's checkpoint are read in one MULTI, the same snapshot the
 * projection committed them in, so a page holds every entry up to where it ends.
 */
import type { FeedEventType } from '@quern/core/events-feed';
import type { Redis } from 'ioredis';
import { parseCheckpoint } from '../checkpoint.js';
import { DEFAULT_CHECKPOINT_KEY } from '../types.js';
import { type MerchantEventRef, merchantEventsByTimeKey, merchantEventsKey, parseMerchantEventMember } from './keys.js';

/** The read models are being rebuilt: a page read now could miss entries the rebuild has not written yet. */
export class ReadModelsRebuildingError extends Error {
  constructor() {
    super('The read models are being rebuilt');
    this.name = 'ReadModelsRebuildingError';
  }
}

export interface MerchantEventsPage {
  refs: MerchantEventRef[];
  hasMore: boolean;
}

/** The most entries one read answers. */
export const MERCHANT_EVENTS_READ_MAX = 1_000;

export interface MerchantEventsRange {
  /** Entries after this position (exclusive); from the first without it. */
  after?: bigint;
  /** Entries up to this position (inclusive). */
  upTo?: bigint;
  limit: number;
  types: readonly FeedEventType[];
  checkpointKey?: string;
}

/** At most `limit` entries of the types in the range, oldest first, and whether more follow. */
export async function readMerchantEvents(redis: Redis, merchantUserId: string, range: MerchantEventsRange): Promise<MerchantEventsPage> {
  const { limit, types } = range;
  if (!Number.isInteger(limit) || limit < 1 || limit > MERCHANT_EVENTS_READ_MAX)
    throw new RangeError(`limit must be an integer from 1 to ${MERCHANT_EVENTS_READ_MAX}`);
  if (types.length === 0) return { refs: [], hasMore: false };
  const min = range.after === undefined ? '-inf' : `(${range.after}`;
  const max = range.upTo === undefined ? '+inf' : range.upTo.toString();
  const tx = redis.multi().get(range.checkpointKey ?? DEFAULT_CHECKPOINT_KEY);
  for (const type of types) tx.zrangebyscore(merchantEventsKey(merchantUserId, type), min, max, 'LIMIT', 0, limit + 1);
  const replies = await tx.exec();
  if (!replies) throw new Error('The merchant events read was aborted');
  const [checkpointReply, ...sets] = replies;
  if (checkpointReply?.[0]) throw checkpointReply[0];
  if (parseCheckpoint(checkpointReply?.[1] as string | null).kind === 'fenced') throw new ReadModelsRebuildingError();
  const refs: MerchantEventRef[] = [];
  for (const [error, members] of sets) {
    if (error) throw error;
    for (const member of members as string[]) refs.push(parseMerchantEventMember(member));
  }
  refs.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return { refs: refs.slice(0, limit), hasMore: refs.length > limit };
}

/**
 * The position of the merchant's first entry recorded at or after `ms` (`'first'`), or of the last
 * recorded at or before it (`'last'`); undefined when there is none. Positions follow the time the
 * log recorded them, so a time range of entries is the position range between these two.
 */
export async function merchantEventPositionAtTime(
  redis: Redis,
  merchantUserId: string,
  ms: number,
  which: 'first' | 'last',
): Promise<bigint | undefined> {
  const key = merchantEventsByTimeKey(merchantUserId);
  const [member] =
    which === 'first'
      ? await redis.zrangebyscore(key, String(ms), '+inf', 'LIMIT', 0, 1)
      : await redis.zrevrangebyscore(key, String(ms), '-inf', 'LIMIT', 0, 1);
  return member === undefined ? undefined : parseMerchantEventMember(member).position;
}
