/** The events feed's service (the list, the stream and the replay), from the composition context (ADR 073). */
import { isLivemode } from '@quern/core';
import type { CompositionContext } from '../composition.js';
import { createEventsFeedService, type EventsFeedService } from './service.js';
import { createEventStreams } from './stream.js';

/** Open streams per merchant in one process: a few tabs and a server, not a way to hold the process's sockets. */
export const EVENT_STREAMS_PER_MERCHANT_MAX = 5;
/** How often a caught-up stream looks for new events, and how long it stays silent before a heartbeat. */
const EVENT_STREAM_POLL_MS = 500;
const EVENT_STREAM_HEARTBEAT_MS = 15_000;

export type EventsFeed = EventsFeedService & ReturnType<typeof createEventStreams>;

// Every request's context carries it as ctx.eventsFeed.
declare module '../http/context.js' {
  interface ApiServices {
    eventsFeed: EventsFeed;
  }
}

export const composeEventsFeedService = ({ config, commands, redis, webhookSourceOf }: CompositionContext): { eventsFeed: EventsFeed } => {
  const service = createEventsFeedService({
    store: commands.store,
    redis,
    clock: commands.clock,
    mode: config.QUERN_MODE,
    publicUrl: config.publicUrl,
    webhookSourceOf,
  });
  const streams = createEventStreams({
    page: service.page,
    livemode: isLivemode(config.QUERN_MODE),
    streamsPerMerchantMax: EVENT_STREAMS_PER_MERCHANT_MAX,
    pollIntervalMs: EVENT_STREAM_POLL_MS,
    heartbeatIntervalMs: EVENT_STREAM_HEARTBEAT_MS,
  });
  return { eventsFeed: { ...service, ...streams } };
};
