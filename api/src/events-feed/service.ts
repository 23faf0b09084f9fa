/**
 * The events feed's use cases (issue 28, ADR 088): a page of the merchant's events after a
 * cursor, the same as a live stream (stream.ts), and the replay of a range to one endpoint.
 */
import { AppError, type Clock, type EventStore, type QuernMode } from '@quern/core';
import {
  type EventsListOutput,
  type EventsListQuery,
  FEED_EVENT_TYPES,
  FEED_PAGE_SIZE,
  FEED_REPLAY_MAX,
  type FeedBound,
  type FeedEventType,
  parseFeedBound,
  type WebhookReplayInput,
  type WebhookReplayOutput,
} from '@quern/core/events-feed';
import { findLiveWebhookEndpoint, replayWebhookSource, WEBHOOK_EVENT_TYPES, endpointWants } from '@quern/core/webhooks';
import { merchantEventPositionAtTime, ReadModelsRebuildingError, readMerchantEvents, type MerchantEventsPage } from '@quern/projections';
import type { Redis } from 'ioredis';
import { type FeedDataDeps, feedEventsOf, recordedEventOf } from './data.js';

export interface EventsFeedServiceDeps extends FeedDataDeps {
  store: EventStore;
  redis: Redis;
  clock: Clock;
  mode: QuernMode;
}

export interface FeedPageRequest {
  after?: bigint;
  limit: number;
  types: readonly FeedEventType[];
}

/** The entries of a page, or 503 while the read models are rebuilt (a page then could skip entries). */
async function readEntries(
  redis: Redis,
  merchantUserId: string,
  range: Parameters<typeof readMerchantEvents>[2],
): Promise<MerchantEventsPage> {
  try {
    return await readMerchantEvents(redis, merchantUserId, range);
  } catch (error) {
    if (error instanceof ReadModelsRebuildingError) throw new AppError('UNAVAILABLE', 'errors:eventsFeedRebuilding');
    throw error;
  }
}

export function createEventsFeedService(deps: EventsFeedServiceDeps) {
  /** A page after the cursor: `next_cursor` is the last event read, else the cursor given (null before any). */
  async function page(merchantUserId: string, request: FeedPageRequest): Promise<EventsListOutput> {
    const entries = await readEntries(deps.redis, merchantUserId, { ...request });
    const data = await feedEventsOf(deps, merchantUserId, entries.refs);
    const last = entries.refs.at(-1)?.position ?? request.after;
    return { object: 'list', data, has_more: entries.hasMore, next_cursor: last === undefined ? null : last.toString() };
  }

  /** The position a bound names among the merchant's entries: a time becomes the first (or last) entry at (or before) it. */
  async function positionOf(merchantUserId: string, bound: FeedBound, end: 'from' | 'to'): Promise<bigint | undefined> {
    if (bound.kind === 'cursor') return bound.position;
    return merchantEventPositionAtTime(deps.redis, merchantUserId, bound.ms, end === 'from' ? 'first' : 'last');
  }

  return {
    page,

    list(merchantUserId: string, query: EventsListQuery): Promise<EventsListOutput> {
      const after = query.after === undefined ? undefined : BigInt(query.after);
      return page(merchantUserId, { after, limit: query.limit ?? FEED_PAGE_SIZE, types: query.types ?? FEED_EVENT_TYPES });
    },

    /**
     * Sends the range again to one live endpoint of the merchant (404 otherwise): each event it
     * subscribes to is redelivered, or delivered for the first time under the id the fan-out would
     * have given it. More than FEED_REPLAY_MAX events: 422, nothing queued.
     */
    async replay(merchantUserId: string, endpointId: string, input: WebhookReplayInput): Promise<WebhookReplayOutput> {
      const endpoint = await findLiveWebhookEndpoint(deps.store, merchantUserId, endpointId);
      const from = await positionOf(merchantUserId, parseFeedBound(input.from, 'from') as FeedBound, 'from');
      const to = await positionOf(merchantUserId, parseFeedBound(input.to, 'to') as FeedBound, 'to');
      const answer: WebhookReplayOutput = {
        object: 'webhook_replay',
        endpoint: endpointId,
        events: 0,
        queued: 0,
        already_pending: 0,
        redeliveries_exhausted: 0,
      };
      if (from === undefined || to === undefined || from > to) return answer;
      const types = WEBHOOK_EVENT_TYPES.filter((type) => endpointWants(endpoint.events, type));
      const entries = await readEntries(deps.redis, merchantUserId, {
        after: from === 0n ? undefined : from - 1n,
        upTo: to,
        limit: FEED_REPLAY_MAX,
        types,
      });
      if (entries.hasMore) throw new AppError('UNPROCESSABLE', 'errors:eventsReplayTooMany', {}, { max: FEED_REPLAY_MAX });
      for (const ref of entries.refs) {
        const recorded = await recordedEventOf(deps.store, ref);
        const source = await deps.webhookSourceOf({ store: deps.store, publicUrl: deps.publicUrl }, recorded);
        if (!source || source.merchantUserId !== merchantUserId)
          throw new Error(`${ref.type} at ${ref.streamId}@${ref.revision} reports otherwise`);
        const outcome = await replayWebhookSource(deps, endpoint, source);
        answer.events += 1;
        if (outcome === 'queued') answer.queued += 1;
        else if (outcome === 'pending') answer.already_pending += 1;
        else answer.redeliveries_exhausted += 1;
      }
      return answer;
    },
  };
}

export type EventsFeedService = ReturnType<typeof createEventsFeedService>;
