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
 */
import {
  ANY,
  BACKWARDS,
  END,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type LogSubscription,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '@quern/core';
import { openKurrentSubscription } from './kurrentdb-subscription.js';
import { mapEvent, toReadPosition, wrapMetadata } from './kurrentdb-mapping.js';
import { checkAfter, checkReadAll, checkReadStream, prepareAppend, prepareStreamAppends } from './validation.js';

/** Longest a health check may take before /healthz reports the store as down. */
export const PING_TIMEOUT_MS = 5_000;
/** Deadline for one append round trip (the client's own default is 10 s). */
export const APPEND_DEADLINE_MS = 10_000;

function toStreamState(expected: ExpectedRevision): typeof NO_STREAM | typeof ANY | bigint {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

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

  async function append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const prepared = prepareAppend(streamId, events, expected);
    const data = prepared.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }));
    let result: Awaited<ReturnType<typeof client.appendToStream>>;
    try {
      result = await client.appendToStream(streamId, data, { streamState: toStreamState(expected), deadline: APPEND_DEADLINE_MS });
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const actual = error.actualState === NO_STREAM ? 'no_stream' : BigInt(error.actualState);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    if (!result.position) throw new Error(`KurrentDB returned no position for the append to ${streamId}`);
    if (prepared.length === 1) return { nextExpectedRevision: result.nextExpectedRevision, position: result.position.commit };
    // For a multi-event append the server's reply is not documented to carry the LAST event's
    // position, which is what the port promises; read it back rather than guess.
    const [last] = await readStream(streamId, { fromRevision: result.nextExpectedRevision, maxCount: 1 });
    if (!last) throw new Error(`The events just appended to ${streamId} cannot be read back`);
    return { nextExpectedRevision: result.nextExpectedRevision, position: last.position };
  }

  /** The position of a stream's event at `revision` (the last one an append wrote). */
  async function positionOf(streamId: string, revision: bigint): Promise<bigint> {
    const [last] = await readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!last) throw new Error(`The events just appended to ${streamId} cannot be read back`);
    return last.position;
  }

  /**
   * One atomic multi-stream append (KurrentDB 25.1+). The server checks every expected revision
   * and writes all streams or none; its reply carries each stream's new revision but one
   * position for the whole write, so each stream's last position is read back.
   */
  async function appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    const prepared = prepareStreamAppends(appends);
    const requests = prepared.map((append) => ({
      streamName: append.streamId,
      expectedState: toStreamState(append.expected),
      events: append.events.map((e) => {
        const metadata = wrapMetadata(e.metadata);
        return jsonEvent({ id: e.id, type: e.type, data: e.data, ...(metadata ? { metadata } : {}) });
      }),
    }));
    let reply: Awaited<ReturnType<typeof client.multiStreamAppend>>;
    try {
      reply = await withTimeout(client.multiStreamAppend(requests), APPEND_DEADLINE_MS, 'KurrentDB multi-stream append');
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const stale = prepared.find((a) => a.streamId === error.streamName);
      if (!stale) throw error;
      const actual = error.actualState === NO_STREAM ? 'no_stream' : BigInt(error.actualState);
      throw new WrongExpectedRevisionError(stale.streamId, stale.expected, actual);
    }
    return Promise.all(
      prepared.map(async (append) => {
        const response = reply.responses.find((r) => r.streamName === append.streamId);
        if (!response) throw new Error(`KurrentDB returned no result for ${append.streamId} in a multi-stream append`);
        return { nextExpectedRevision: response.revision, position: await positionOf(append.streamId, response.revision) };
      }),
    );
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
