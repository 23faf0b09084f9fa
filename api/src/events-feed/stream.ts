/**
 * The events feed as server-sent events (ADR 088): each event is one message whose `id:` is its
 * cursor, so a client that reconnects with `Last-Event-ID` (EventSource does) resumes right after
 * the last event it got: nothing missed, nothing twice. The stream reads the same pages as the list
 * (read model snapshot, data folded from the log), polls for more when it has caught up, writes a
 * comment as a heartbeat when idle, honours backpressure, and stops when the client goes or the
 * server shuts down. A merchant holds at most `streamsPerMerchantMax` at once in this process.
 */
import { once } from 'node:events';
import type { Response } from 'express';
import { AppError } from '@quern/core';
import { type EventsListOutput, type EventsStreamQuery, FEED_EVENT_TYPES, parseFeedCursor } from '@quern/core/events-feed';
import { logUnexpectedError } from '../http/request-id.js';
import type { FeedPageRequest } from './service.js';

export interface EventStreamsOptions {
  page: (merchantUserId: string, request: FeedPageRequest) => Promise<EventsListOutput>;
  livemode: boolean;
  streamsPerMerchantMax: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
}

export const EVENT_STREAM_PAGE_SIZE = 100;
/** How long a client waits before reconnecting after a drop, as the stream tells EventSource. */
const RETRY_MS = 2_000;

/** Where a stream starts: the `Last-Event-ID` header of a reconnect wins over `?after=`. */
function startOf(lastEventId: string | undefined, query: EventsStreamQuery): bigint | undefined {
  if (lastEventId !== undefined && lastEventId !== '') {
    const position = parseFeedCursor(lastEventId);
    if (position === undefined)
      throw new AppError('VALIDATION', 'errors:eventsFeedInvalidCursor', { 'Last-Event-ID': 'errors:eventsFeedInvalidCursor' });
    return position;
  }
  return query.after === undefined ? undefined : BigInt(query.after);
}

export function createEventStreams(options: EventStreamsOptions) {
  const openPerMerchant = new Map<string, number>();
  const stops = new Set<() => void>();

  async function follow(merchantUserId: string, query: EventsStreamQuery, after: bigint | undefined, res: Response): Promise<void> {
    let closed = false;
    let wake: (() => void) | undefined;
    const stop = () => {
      closed = true;
      wake?.();
    };
    res.on('close', stop);
    stops.add(stop);
    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // A reverse proxy (nginx) would otherwise hold the messages back to fill its buffer.
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    let lastWriteMs = Date.now();
    const write = async (text: string) => {
      lastWriteMs = Date.now();
      if (!res.write(text) && !closed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    };
    try {
      await write(`retry: ${RETRY_MS}\n\n`);
      const types = query.types ?? FEED_EVENT_TYPES;
      while (!closed) {
        const page = await options.page(merchantUserId, { after, limit: EVENT_STREAM_PAGE_SIZE, types });
        for (const event of page.data) {
          if (closed) break;
          await write(`id: ${event.cursor}\nevent: ${event.type}\ndata: ${JSON.stringify({ ...event, livemode: options.livemode })}\n\n`);
          after = BigInt(event.cursor);
        }
        if (page.has_more || closed) continue;
        if (Date.now() - lastWriteMs >= options.heartbeatIntervalMs) await write(': heartbeat\n\n');
        await new Promise<void>((done) => {
          const timer = setTimeout(done, options.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            done();
          };
        });
        wake = undefined;
      }
    } catch (error) {
      // The answer has started: the error can only be told as a message of its own before the end.
      if (!(error instanceof AppError)) logUnexpectedError(res.req, error);
      if (!closed) res.write(`event: error\ndata: ${JSON.stringify({ message: 'The stream stopped; reconnect to resume.' })}\n\n`);
    } finally {
      stops.delete(stop);
      res.off('close', stop);
      res.end();
    }
  }

  return {
    /** 400 for a malformed Last-Event-ID, 429 past the merchant's open streams; then streams until the client goes. */
    async stream(merchantUserId: string, query: EventsStreamQuery, res: Response): Promise<void> {
      const after = startOf(res.req.get('last-event-id'), query);
      const open = openPerMerchant.get(merchantUserId) ?? 0;
      if (open >= options.streamsPerMerchantMax)
        throw new AppError('RATE_LIMITED', 'errors:eventsStreamTooMany', {}, { max: options.streamsPerMerchantMax });
      openPerMerchant.set(merchantUserId, open + 1);
      try {
        await follow(merchantUserId, query, after, res);
      } finally {
        const left = (openPerMerchant.get(merchantUserId) ?? 1) - 1;
        if (left > 0) openPerMerchant.set(merchantUserId, left);
        else openPerMerchant.delete(merchantUserId);
      }
    },

    /** Ends every open stream (the server is shutting down): clients reconnect, elsewhere or later, from their last id. */
    endAll(): void {
      for (const stop of stops) stop();
    },
  };
}
