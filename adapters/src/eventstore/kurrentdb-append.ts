/**
 * Appends on KurrentDB, single- and multi-stream, with the port's retry rule (ADR 018).
 *
 * What the server does (KurrentDB IndexWriter.CheckCommit): for an exact expected revision r
 * (or no stream, r = -1) whose stream has moved past r, it compares the ids at r + 1 ... with the
 * append's: all equal → success with the original revisions, nothing written ("idempotent");
 * the first differs → wrong expected version; a later one differs → also reported as wrong
 * expected version ("corrupted idempotency"). With 'any' it only consults a bounded cache of
 * recently committed ids. In a multi-stream append, all streams idempotent → success; a mix
 * → wrong expected version naming no stream.
 *
 * So this adapter (1) turns an 'any' append whose ids are the stream's last events into an
 * exact-revision append, where the server's check is exact instead of cache-based; (2) after a
 * refusal, reads where the events would be and judges the call with the shared rule
 * (retry.ts), so that a partial or mixed retry is DuplicateEventIdError as on SQLite; (3) treats
 * a success for an 'any' append that did not advance the stream by the append's own length as
 * the server's cache finding the ids away from the stream's end: not a retry, refused.
 */
import {
  ANY,
  type AppendStreamState,
  BACKWARDS,
  END,
  FORWARDS,
  jsonEvent,
  type KurrentDBClient,
  NO_STREAM,
  StreamNotFoundError,
  UnknownError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendResult,
  DuplicateEventIdError,
  type ExpectedRevision,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@quern/core';
import { mapEvent, wrapMetadata } from './kurrentdb-mapping.js';
import { compareIds, judgeRetry, retryWindow } from './retry.js';
import type { PreparedStreamAppend } from './validation.js';

/** Deadline for one append round trip (the client's own default is 10 s). */
export const APPEND_DEADLINE_MS = 10_000;

/** A stream append as sent: `sent` is what the server checks, `expected` what the caller asked. */
interface Planned extends PreparedStreamAppend {
  sent: ExpectedRevision;
  /** For an 'any' append sent as 'any': the stream's last revision before it (-1 when missing). */
  lastSeen?: bigint;
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}

/** Rejects when `work` has not settled in time (it is not cancelled: its outcome stays unknown). */
export async function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
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

export function kurrentAppender(client: KurrentDBClient) {
  async function read(
    streamId: string,
    options: { from: bigint | typeof END; backwards: boolean; maxCount: number },
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const reader = client.readStream(streamId, {
        fromRevision: options.from,
        direction: options.backwards ? BACKWARDS : FORWARDS,
        maxCount: options.maxCount,
      });
      for await (const resolved of reader) if (resolved.event) events.push(mapEvent(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return options.backwards ? events.reverse() : events;
  }

  const lastEvents = (streamId: string, count: number) => read(streamId, { from: END, backwards: true, maxCount: count });

  async function positionOf(streamId: string, revision: bigint): Promise<bigint> {
    const [event] = await read(streamId, { from: revision, backwards: false, maxCount: 1 });
    if (!event) throw new Error(`The events just appended to ${streamId} cannot be read back`);
    return event.position;
  }

  /** Step (1): an 'any' append already recorded at the stream's end becomes an exact retry. */
  async function plan(append: PreparedStreamAppend): Promise<Planned> {
    if (append.expected !== 'any') return { ...append, sent: append.expected };
    const last = await lastEvents(append.streamId, append.events.length);
    const lastSeen = last.at(-1)?.revision ?? -1n;
    const ids = append.events.map((e) => e.id);
    const recorded = compareIds(ids, last.length === ids.length ? last.map((e) => e.id) : []);
    // Partly at the end: SQLite refuses it (retry.ts); the server's cache might write it again.
    if (recorded === 'some') judgeRetry([{ streamId: append.streamId, recorded }]);
    if (recorded === 'none') return { ...append, sent: 'any', lastSeen };
    const before = lastSeen - BigInt(ids.length);
    return { ...append, sent: before < 0n ? 'no_stream' : before };
  }

  /** Step (2): after a refusal, read where each append would be and judge the call as a whole. */
  async function judgeRefusal(planned: Planned[], error: unknown): Promise<AppendResult[]> {
    const lookups = await Promise.all(
      planned.map(async (append) => {
        const [last] = await lastEvents(append.streamId, 1);
        const window = retryWindow(append.sent, append.events.length, last?.revision);
        const found = window ? await read(append.streamId, { from: window.from, backwards: false, maxCount: append.events.length }) : [];
        const ids = append.events.map((e) => e.id);
        const recorded = compareIds(
          ids,
          found.map((e) => e.id),
        );
        const original = found.length === ids.length ? found.at(-1) : undefined;
        return { streamId: append.streamId, recorded, original };
      }),
    );
    if (judgeRetry(lookups) === 'recorded') {
      return lookups.map(({ streamId, original }) => {
        if (!original) throw new Error(`Stream ${streamId}: a recorded append cannot be read back`);
        return { nextExpectedRevision: original.revision, position: original.position };
      });
    }
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    const stale = planned.find((a) => a.streamId === error.streamName);
    if (!stale) throw error;
    if (stale.sent === 'any') {
      // Only the server's id cache refuses an 'any' append: some of its ids are in the stream.
      throw new DuplicateEventIdError(stale.streamId, 'some event ids of this append are already recorded in the stream', { cause: error });
    }
    const actual = error.actualState === NO_STREAM ? 'no_stream' : BigInt(error.actualState);
    throw new WrongExpectedRevisionError(stale.streamId, stale.expected, actual);
  }

  /** Step (3), then the results: each stream's new revision and its last event's position. */
  async function results(
    planned: Planned[],
    revisions: (bigint | undefined)[],
    singlePosition: bigint | undefined,
  ): Promise<AppendResult[]> {
    return Promise.all(
      planned.map(async (append, i) => {
        const revision = revisions[i];
        if (revision === undefined) throw new Error(`KurrentDB returned no result for ${append.streamId}`);
        if (append.lastSeen !== undefined && revision < append.lastSeen + BigInt(append.events.length)) {
          throw new DuplicateEventIdError(append.streamId, 'the event ids of this append are already recorded earlier in the stream');
        }
        const single = planned.length === 1 && append.events.length === 1 && singlePosition !== undefined;
        return { nextExpectedRevision: revision, position: single ? singlePosition : await positionOf(append.streamId, revision) };
      }),
    );
  }

  const toEventData = (append: PreparedStreamAppend) =>
    append.events.map((e) => {
      const metadata = wrapMetadata(e.metadata);
      return jsonEvent({ id: e.id, type: e.type, data: e.data, ...(metadata ? { metadata } : {}) });
    });

  /** One stream: the classic append, which every supported server (22.6+) has. */
  async function appendOne(append: PreparedStreamAppend): Promise<AppendResult> {
    const planned = await plan(append);
    let reply: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      // The classic append takes JSON metadata as is; only multi-stream appends need the envelope.
      const data = append.events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }));
      reply = await client.appendToStream(append.streamId, data, {
        streamState: toStreamState(planned.sent),
        deadline: APPEND_DEADLINE_MS,
      });
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const [result] = await judgeRefusal([planned], error);
      if (!result) throw error;
      return result;
    }
    const [result] = await results([planned], [reply.nextExpectedRevision], reply.position?.commit);
    if (!result) throw new Error(`KurrentDB returned no result for ${append.streamId}`);
    return result;
  }

  /** Several streams in one atomic multi-stream append (KurrentDB 25.1+). */
  async function appendMany(appends: PreparedStreamAppend[]): Promise<AppendResult[]> {
    const planned = await Promise.all(appends.map(plan));
    const requests = planned.map((a) => ({ streamName: a.streamId, expectedState: toStreamState(a.sent), events: toEventData(a) }));
    let reply: Awaited<ReturnType<KurrentDBClient['multiStreamAppend']>>;
    try {
      reply = await withTimeout(client.multiStreamAppend(requests), APPEND_DEADLINE_MS, 'KurrentDB multi-stream append');
    } catch (error) {
      // A mixed retry is refused with a wrong-expected-version that names no stream, which the
      // client may surface as an unknown error; both are judged by reading the streams.
      if (!(error instanceof WrongExpectedVersionError || error instanceof UnknownError)) throw error;
      return judgeRefusal(planned, error);
    }
    const revisions = planned.map((a) => reply.responses.find((r) => r.streamName === a.streamId)?.revision);
    return results(planned, revisions, undefined);
  }

  return { appendOne, appendMany };
}
