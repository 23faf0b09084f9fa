/**
 * The event store on KurrentDB (or EventStoreDB >= 22.6) over gRPC, with @kurrent/kurrentdb-client
 * (ADR 001). Used when EVENTSTORE_URL is set.
 *
 * Positions. KurrentDB addresses a record in $all by (commit, prepare). Every append this adapter
 * makes goes through the gRPC Append path, which the server writes as an implicit transaction:
 * one prepare record per event, flagged as committed. For such records the server reports
 * commit = prepare = the record's own log position, a byte offset that is unique and strictly
 * increasing in log order. So the commit position alone is a faithful single-bigint position for
 * our port. Only legacy explicit transactions (the TCP API, removed from KurrentDB) give several
 * events one commit position; mapEvent refuses those rather than hand out an ambiguous checkpoint.
 * Multi-stream appends (KurrentDB 25.1+, appendToStreams) are taken to be written the same way;
 * that is to be verified on a live server (ADR 018), and mapEvent would refuse them if not.
 * Appends and their retry rule live in kurrentdb-append.ts.
 */
import { BACKWARDS, END, excludeSystemEvents, FORWARDS, KurrentDBClient, START, StreamNotFoundError } from '@kurrent/kurrentdb-client';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  LogSubscription,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
} from '@quern/core';
import { kurrentAppender, withTimeout } from './kurrentdb-append.js';
import { openKurrentSubscription } from './kurrentdb-subscription.js';
import { mapEvent, toReadPosition } from './kurrentdb-mapping.js';
import { checkAfter, checkReadAll, checkReadStream, prepareAppend, prepareStreamAppends } from './validation.js';

/** Longest a health check may take before /healthz reports the store as down. */
export const PING_TIMEOUT_MS = 5_000;

export function openKurrentEventStore(options: { connectionString: string }): EventStore {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const subscriptions = new Set<LogSubscription>();

  async function readStream(streamId: string, readOptions: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    checkReadStream(streamId, readOptions);
    const events: RecordedEvent[] = [];
    try {
      const reader = client.readStream(streamId, {
        fromRevision: readOptions.fromRevision ?? START,
        direction: FORWARDS,
        ...(readOptions.maxCount === undefined ? {} : { maxCount: readOptions.maxCount }),
      });
      for await (const resolved of reader) if (resolved.event) events.push(mapEvent(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  const appender = kurrentAppender(client);

  async function append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return appender.appendOne({ streamId, events: prepareAppend(streamId, events, expected), expected });
  }

  /** Several streams at once: KurrentDB 25.1's atomic multi-stream append (ADR 018). */
  async function appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    return appender.appendMany(prepareStreamAppends(appends));
  }

  return {
    append,
    appendToStreams,
    readStream,

    async readAll(readOptions: ReadAllOptions): Promise<RecordedEvent[]> {
      checkReadAll(readOptions);
      const { after, maxCount } = readOptions;
      // KurrentDB reads $all from a position inclusively; ask for one more and drop the
      // checkpoint's own event to get the port's exclusive semantics.
      const reader = client.readAll({
        fromPosition: toReadPosition(after),
        direction: FORWARDS,
        maxCount: maxCount + 1,
        filter: excludeSystemEvents(),
      });
      const events: RecordedEvent[] = [];
      for await (const resolved of reader) {
        if (!resolved.event) continue;
        const event = mapEvent(resolved.event);
        if (after !== undefined && event.position <= after) continue;
        if (events.length < maxCount) events.push(event);
      }
      return events;
    },

    subscribeToAll(subscribeOptions: { after?: bigint } = {}): LogSubscription {
      checkAfter(subscribeOptions.after);
      const subscription = openKurrentSubscription(client, subscribeOptions.after, (ended) => subscriptions.delete(ended));
      subscriptions.add(subscription);
      return subscription;
    },

    async ping(): Promise<void> {
      // The last event of $all, whatever it is: one small read that needs a working server.
      const read = async () => {
        for await (const _ of client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
      };
      await withTimeout(read(), PING_TIMEOUT_MS, 'KurrentDB');
    },

    async close(): Promise<void> {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await client.dispose();
    },
  };
}
