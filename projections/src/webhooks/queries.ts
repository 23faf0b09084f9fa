/** Reads of the webhooks read model: a page of an endpoint's delivery ids, newest first. */
import type { Redis } from 'ioredis';
import { webhookDeliveriesKey } from './keys.js';

export interface WebhookDeliveryIdPage {
  ids: string[];
  hasMore: boolean;
}

/** At most `limit` (1 to 100) ids older than `startingAfter` (or the newest); unknown cursor: an empty page. */
export async function listWebhookDeliveryIds(
  redis: Redis,
  endpointId: string,
  options: { limit: number; startingAfter?: string },
): Promise<WebhookDeliveryIdPage> {
  const { limit, startingAfter } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RangeError('limit must be an integer from 1 to 100');
  const key = webhookDeliveriesKey(endpointId);
  let max = '+inf';
  if (startingAfter !== undefined) {
    const score = await redis.zscore(key, startingAfter);
    if (score === null) return { ids: [], hasMore: false };
    max = `(${score}`;
  }
  const ids = await redis.zrevrangebyscore(key, max, '-inf', 'LIMIT', 0, limit + 1);
  return { ids: ids.slice(0, limit), hasMore: ids.length > limit };
}
