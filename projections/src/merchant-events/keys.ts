/** Key names of the merchant events read model (all under rm:, so a rebuild finds them). */
import type { FeedEventType } from '@quern/core/events-feed';

export const MERCHANT_EVENTS_PREFIX = 'rm:merchant-events:';

/** Sorted set per merchant and feed type: entry member -> log position. */
export const merchantEventsKey = (merchantUserId: string, type: FeedEventType): string =>
  `${MERCHANT_EVENTS_PREFIX}${merchantUserId}:${type}`;

/** Sorted set per merchant: entry member -> the time the log recorded the event (ms), for a replay's time bounds. */
export const merchantEventsByTimeKey = (merchantUserId: string): string => `${MERCHANT_EVENTS_PREFIX}${merchantUserId}:by-time`;

/** Hash: subscription id -> its provider, as SubscriptionStarted named it. */
export const SUBSCRIPTION_PROVIDERS_KEY = `${MERCHANT_EVENTS_PREFIX}subscription-providers`;

/** One indexed event: where it is in the log and which feed type it is. */
export interface MerchantEventRef {
  position: bigint;
  streamId: string;
  revision: bigint;
  type: FeedEventType;
}

/** `position:revision:type:streamId`: the stream id last, since it is the only part that may hold a colon. */
export const merchantEventMember = (ref: MerchantEventRef): string => `${ref.position}:${ref.revision}:${ref.type}:${ref.streamId}`;

export function parseMerchantEventMember(member: string): MerchantEventRef {
  const [position, revision, type, ...stream] = member.split(':');
  if (position === undefined || revision === undefined || type === undefined || stream.length === 0)
    throw new Error(`Malformed merchant event entry ${JSON.stringify(member.slice(0, 80))}`);
  return { position: BigInt(position), revision: BigInt(revision), type: type as FeedEventType, streamId: stream.join(':') };
}
