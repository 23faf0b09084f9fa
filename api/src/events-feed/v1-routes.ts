/** The merchant API's events feed and webhook replay (issue 28, ADR 088), declared for the v1 route table. */
import {
  eventsListOutput,
  eventsListQuery,
  eventsStreamQuery,
  FEED_REPLAY_MAX,
  webhookReplayInput,
  webhookReplayOutput,
} from '@quern/core/events-feed';
import { webhookEndpointParams } from '@quern/core/webhooks';
import { jsonRoute, streamRoute, type V1Route } from '../v1/route.js';
import { EVENT_STREAMS_PER_MERCHANT_MAX } from './composition.js';

const tag = 'Events';

export const eventsFeedV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/events',
    operationId: 'listEvents',
    tag,
    summary: 'Every event of the merchant, oldest first',
    description:
      "Paid orders, refunds, payouts, subscriptions, invoices and webhook endpoint changes, from the merchant's first event, kept for good. Each event's `data` is the object as it was right after it: for a webhook type, what that webhook carries. Page with `after` = the previous page's `next_cursor` (a position in the log): events written meanwhile always come after it, so a walk never misses or repeats one, and polling with the last `next_cursor` finds what came since.",
    query: eventsListQuery,
    response: eventsListOutput,
    run: ({ ctx, merchant, query }) => ctx.eventsFeed.list(merchant.userId, query),
  }),
  streamRoute({
    kind: 'stream',
    method: 'get',
    path: '/events/stream',
    operationId: 'streamEvents',
    tag,
    summary: 'The events as server-sent events, live',
    description: `The same events as \`GET /events\`, as \`text/event-stream\`: each message's \`id\` is the event's cursor, \`event\` its type and \`data\` the event as JSON. It goes on with new events as they happen; a comment line every 15 seconds of silence keeps it open. Reconnecting with the \`Last-Event-ID\` header (EventSource does it) resumes right after the last event received, none missed or repeated; \`after\` starts elsewhere. At most ${EVENT_STREAMS_PER_MERCHANT_MAX} open streams per merchant (429 beyond).`,
    query: eventsStreamQuery,
    produces: 'text/event-stream',
    responseDescription: 'Server-sent events, one per feed event, until the client closes the connection.',
    run: ({ ctx, merchant, query, res }) => ctx.eventsFeed.stream(merchant.userId, query, res),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/webhook-endpoints/{id}/replay',
    operationId: 'replayWebhookEvents',
    tag: 'Webhooks',
    summary: 'Send a range of events to an endpoint again',
    description: `Every event from \`from\` to \`to\` (cursors or times, both inclusive) of the types the endpoint subscribes to is delivered to it again through the usual path, signed with its current secret, each with the \`webhook-id\` its first delivery had (or would have had, for an event from before the endpoint existed), so a receiver that keeps the ids it processed skips what it already has. Deliveries still being attempted are left to finish: asking again at once queues nothing twice. At most ${FEED_REPLAY_MAX} events per request (422 beyond: narrow the range).`,
    params: webhookEndpointParams,
    body: webhookReplayInput,
    response: webhookReplayOutput,
    run: ({ ctx, merchant, params, body }) => ctx.eventsFeed.replay(merchant.userId, params.id, body),
  }),
];
