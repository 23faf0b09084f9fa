/**
 * The merchant events read model (issue 28, ADR 088): per merchant and feed type, the log events
 * of the events feed (their position, stream and revision), scored by position, and the same
 * entries by the time the log recorded them. The objects are not copied: the feed folds each from
 * the log at read time, as the fan-out does, so an entry is a few bytes and never goes stale.
 *
 * The entries are committed with the runner's checkpoint in one transaction, so whoever reads the
 * sets sees every entry up to some position and none beyond it: a page read after a cursor can
 * never miss an event that a later page would have to show.
 *
 * A subscription's renewal, failed charge and cancellation do not name its provider; its
 * SubscriptionStarted did, and is recorded here, so a script run at EXEC reads the provider and
 * adds the entry. It reads only what this projection wrote for earlier events, so a rebuild in log
 * order ends with the same sets.
 */
import type { RecordedEvent } from '@quern/core';
import { feedEntryOf, subscriptionProviderOf } from '@quern/core/events-feed';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import {
  MERCHANT_EVENTS_PREFIX,
  merchantEventMember,
  merchantEventsByTimeKey,
  merchantEventsKey,
  SUBSCRIPTION_PROVIDERS_KEY,
} from './keys.js';

/**
 * KEYS[1]: the providers hash. ARGV: subscription id, key prefix, feed type, position, time (ms),
 * member. The merchant's keys are named from the provider read here, so they cannot be declared.
 */
const ADD_FOR_PROVIDER_SCRIPT = `
local provider = redis.call('HGET', KEYS[1], ARGV[1])
if not provider then return 0 end
redis.call('ZADD', ARGV[2] .. provider .. ':' .. ARGV[3], ARGV[4], ARGV[6])
redis.call('ZADD', ARGV[2] .. provider .. ':by-time', ARGV[5], ARGV[6])
return 1
`;

/** When the log recorded the event, in ms (0 when unreadable): the replay's time bounds use it. */
function recordedMsOf(event: RecordedEvent): number {
  const ms = Date.parse(event.recordedAt);
  return Number.isNaN(ms) || ms < 0 ? 0 : ms;
}

export const merchantEventsProjection: Projection = {
  name: 'merchant-events',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    const started = subscriptionProviderOf(event);
    if (started) tx.hset(SUBSCRIPTION_PROVIDERS_KEY, started.subscriptionId, started.providerUserId);
    const entry = feedEntryOf(event);
    if (!entry) return;
    const member = merchantEventMember({ position: event.position, streamId: event.streamId, revision: event.revision, type: entry.type });
    const score = event.position.toString();
    const ms = String(recordedMsOf(event));
    if ('merchantUserId' in entry.owner) {
      tx.zadd(merchantEventsKey(entry.owner.merchantUserId, entry.type), score, member);
      tx.zadd(merchantEventsByTimeKey(entry.owner.merchantUserId), ms, member);
      return;
    }
    tx.eval(
      ADD_FOR_PROVIDER_SCRIPT,
      1,
      SUBSCRIPTION_PROVIDERS_KEY,
      entry.owner.subscriptionId,
      MERCHANT_EVENTS_PREFIX,
      entry.type,
      score,
      ms,
      member,
    );
  },
};
