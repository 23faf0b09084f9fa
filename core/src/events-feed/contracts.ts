/**
 * The events feed on the wire (issue 28, ADR 088): its query, its page, the replay's request and
 * answer. Shared by the REST routes and the reference.
 */
import { z } from 'zod';
import { FEED_EVENT_TYPES, type FeedEventType, isFeedEventType } from './types.js';
import { boundsReversed, parseFeedBound, parseFeedCursor } from './cursor.js';

export const FEED_PAGE_SIZE = 100;
export const FEED_PAGE_MAX = 1_000;
/** The most events one replay may send: a wider range is refused with 422, to be narrowed. */
export const FEED_REPLAY_MAX = 1_000;

const cursorText = z
  .string({ error: 'errors:eventsFeedInvalidCursor' })
  .max(20, { error: 'errors:eventsFeedInvalidCursor' })
  .refine((text) => parseFeedCursor(text) !== undefined, { error: 'errors:eventsFeedInvalidCursor' });

/** `limit` as a query string: 1 to FEED_PAGE_MAX, digits only. */
const limitText = z
  .string({ error: 'errors:eventsFeedInvalidLimit' })
  .regex(/^[1-9][0-9]{0,3}$/, { error: 'errors:eventsFeedInvalidLimit' })
  .transform(Number)
  .refine((n) => n <= FEED_PAGE_MAX, { error: 'errors:eventsFeedInvalidLimit' });

/** The types a `types` filter names, without repeats, in the feed's order; undefined when a name is unknown. */
export function parseFeedTypes(text: string): FeedEventType[] | undefined {
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => !isFeedEventType(name))) return undefined;
  const wanted = new Set(names);
  return FEED_EVENT_TYPES.filter((type) => wanted.has(type));
}

const typesText = z
  .string({ error: 'errors:eventsFeedUnknownType' })
  .max(1_000, { error: 'errors:eventsFeedUnknownType' })
  .transform((text, ctx) => {
    const types = parseFeedTypes(text);
    if (types === undefined) {
      ctx.addIssue({ code: 'custom', message: 'errors:eventsFeedUnknownType' });
      return z.NEVER;
    }
    return types;
  });

export const eventsListQuery = z.strictObject({
  after: cursorText.optional().meta({
    description:
      "A cursor (a page's `next_cursor`, or an event's `cursor`): the feed continues after it. Without it, from the first event.",
  }),
  limit: limitText.optional().meta({ description: `How many events, 1 to ${FEED_PAGE_MAX}; ${FEED_PAGE_SIZE} by default.` }),
  types: typesText
    .optional()
    .meta({ description: `Only these types, comma-separated: ${FEED_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}.` }),
});
export type EventsListQuery = z.output<typeof eventsListQuery>;

export const eventsStreamQuery = eventsListQuery.omit({ limit: true });
export type EventsStreamQuery = z.output<typeof eventsStreamQuery>;

export const feedEventOutput = z.object({
  id: z.string().meta({ description: 'Stable per event (`evt_` and 32 hex digits): the same on every read, page or stream.' }),
  object: z.literal('event'),
  type: z.enum(FEED_EVENT_TYPES),
  cursor: z.string().meta({ description: "The event's place in the log: pass it as `after` to continue after this event." }),
  created_at: z.string().meta({ description: 'When the log recorded the event (ISO 8601).' }),
  data: z
    .record(z.string(), z.unknown())
    .meta({ description: "The object as it was right after the event: for a webhook type, exactly what that webhook's `data` carries." }),
});
export type FeedEventOutput = z.infer<typeof feedEventOutput>;

export const eventsListOutput = z.object({
  object: z.literal('list'),
  data: z.array(feedEventOutput),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({
    description:
      'Pass as `after` for the next page; the last event read, so polling with it later finds what came since. Null before any event.',
  }),
});
export type EventsListOutput = z.infer<typeof eventsListOutput>;

const boundText = (end: 'from' | 'to') =>
  z
    .string({ error: 'errors:eventsReplayInvalidBound' })
    .max(40, { error: 'errors:eventsReplayInvalidBound' })
    .refine((text) => parseFeedBound(text, end) !== undefined, { error: 'errors:eventsReplayInvalidBound' });

export const webhookReplayInput = z
  .strictObject({
    from: boundText('from').meta({ description: 'A cursor, a UTC day or an ISO 8601 instant: the first event of the range, inclusive.' }),
    to: boundText('to').meta({
      description: 'A cursor, a UTC day (the whole day) or an ISO 8601 instant: the last event of the range, inclusive.',
    }),
  })
  .superRefine((input, ctx) => {
    const from = parseFeedBound(input.from, 'from');
    const to = parseFeedBound(input.to, 'to');
    if (from && to && boundsReversed(from, to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'errors:eventsReplayRangeReversed' });
  });
export type WebhookReplayInput = z.output<typeof webhookReplayInput>;

export const webhookReplayOutput = z.object({
  object: z.literal('webhook_replay'),
  endpoint: z.string(),
  events: z.number().int().meta({ description: 'Events in the range that the endpoint subscribes to.' }),
  queued: z.number().int().meta({ description: 'Deliveries queued by this request: redeliveries and first deliveries.' }),
  already_pending: z.number().int().meta({
    description: 'Events whose delivery to this endpoint is still being attempted (or not yet scheduled): they go out without another run.',
  }),
  redeliveries_exhausted: z
    .number()
    .int()
    .meta({ description: 'Deliveries that were already sent again as often as one may be (20 times): not queued.' }),
});
export type WebhookReplayOutput = z.infer<typeof webhookReplayOutput>;
