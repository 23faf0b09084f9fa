/**
 * Input checks and limits shared by every event-store adapter, so that the same append or read
 * is accepted or refused identically whether Quern runs on SQLite or on KurrentDB. Invalid input
 * is a programming error in the caller, so it is refused with TypeError/RangeError rather than
 * a domain error.
 */
import { randomUUID } from 'node:crypto';
import type { ExpectedRevision, NewEvent, ReadAllOptions, ReadStreamOptions, StreamAppend } from '@quern/core';

/** More events than this in one append is almost certainly a bug (and would hold the writer). */
export const MAX_EVENTS_PER_APPEND = 1_000;
/** More streams than this in one atomic append is almost certainly a bug (a transfer touches two). */
export const MAX_STREAMS_PER_APPEND = 100;
/** Upper bound on one event's data + metadata as UTF-8 JSON; KurrentDB's own default is 16 MiB. */
export const MAX_EVENT_BYTES = 1_048_576;
/** Upper bound on one page of the global log (readAll maxCount). */
export const MAX_PAGE_SIZE = 10_000;
/** Stream ids embed keys such as a 254-character e-mail address (identity-key streams). */
export const MAX_STREAM_ID_LENGTH = 512;
/** Event types are short past-tense names. */
export const MAX_EVENT_TYPE_LENGTH = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event that passed validation, with its id fixed and its JSON already produced once. */
export interface PreparedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  dataJson: string;
  metadataJson: string;
}

function checkName(kind: string, value: unknown, maxLength: number): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    throw new TypeError(`${kind} must be a non-empty string of at most ${maxLength} characters`);
  }
  // "$" names belong to KurrentDB system streams and events; refusing them everywhere keeps the
  // two adapters interchangeable and keeps our events out of the system-event filter.
  if (value.startsWith('$')) throw new TypeError(`${kind} must not start with "$" (reserved): ${value}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function prepareEvent(event: NewEvent, index: number): PreparedEvent {
  checkName(`events[${index}].type`, event.type, MAX_EVENT_TYPE_LENGTH);
  if (!isPlainObject(event.data)) throw new TypeError(`events[${index}].data must be an object`);
  const metadata = event.metadata ?? {};
  if (!isPlainObject(metadata)) throw new TypeError(`events[${index}].metadata must be an object`);
  if (event.id !== undefined && !UUID.test(event.id)) throw new TypeError(`events[${index}].id must be a UUID`);
  // JSON.stringify throws a TypeError on bigint values, which is the message the caller needs.
  const dataJson = JSON.stringify(event.data);
  const metadataJson = JSON.stringify(metadata);
  const bytes = Buffer.byteLength(dataJson) + Buffer.byteLength(metadataJson);
  if (bytes > MAX_EVENT_BYTES) {
    throw new RangeError(`events[${index}] is ${bytes} bytes of JSON; the limit is ${MAX_EVENT_BYTES}`);
  }
  return { id: event.id ?? randomUUID(), type: event.type, data: event.data, metadata, dataJson, metadataJson };
}

/** Validates an append and returns its events ready to write; throws on invalid input. */
export function prepareAppend(streamId: string, events: NewEvent[], expected: ExpectedRevision): PreparedEvent[] {
  checkName('streamId', streamId, MAX_STREAM_ID_LENGTH);
  if (!Array.isArray(events) || events.length === 0) throw new TypeError('append needs at least one event');
  if (events.length > MAX_EVENTS_PER_APPEND) {
    throw new RangeError(`append has ${events.length} events; the limit is ${MAX_EVENTS_PER_APPEND}`);
  }
  if (expected !== 'no_stream' && expected !== 'any' && !(typeof expected === 'bigint' && expected >= 0n)) {
    throw new RangeError(`expectedRevision must be 'no_stream', 'any' or a bigint >= 0, got ${String(expected)}`);
  }
  const prepared = events.map(prepareEvent);
  if (new Set(prepared.map((e) => e.id)).size !== prepared.length) throw new TypeError('event ids repeat within one append');
  return prepared;
}

/** One stream's share of a validated multi-stream append. */
export interface PreparedStreamAppend {
  streamId: string;
  events: PreparedEvent[];
  expected: ExpectedRevision;
}

/**
 * Validates a multi-stream append: every stream as a single append would be, no stream twice,
 * no event id twice across the whole call, and the call as a whole within the per-append event
 * limit (it is written as one unit, like a single append).
 */
export function prepareStreamAppends(appends: StreamAppend[]): PreparedStreamAppend[] {
  if (!Array.isArray(appends) || appends.length === 0) throw new TypeError('appendToStreams needs at least one stream append');
  if (appends.length > MAX_STREAMS_PER_APPEND) {
    throw new RangeError(`appendToStreams names ${appends.length} streams; the limit is ${MAX_STREAMS_PER_APPEND}`);
  }
  const prepared = appends.map((append, i) => {
    if (typeof append !== 'object' || append === null) throw new TypeError(`appends[${i}] must be an object`);
    return {
      streamId: append.streamId,
      events: prepareAppend(append.streamId, append.events, append.expectedRevision),
      expected: append.expectedRevision,
    };
  });
  const streams = new Set(prepared.map((a) => a.streamId));
  if (streams.size !== prepared.length) throw new TypeError('appendToStreams names a stream more than once');
  const ids = prepared.flatMap((a) => a.events.map((e) => e.id));
  if (ids.length > MAX_EVENTS_PER_APPEND) {
    throw new RangeError(`appendToStreams has ${ids.length} events; the limit is ${MAX_EVENTS_PER_APPEND}`);
  }
  if (new Set(ids).size !== ids.length) throw new TypeError('event ids repeat within one append');
  return prepared;
}

export function checkReadAll(options: ReadAllOptions): void {
  const { after, maxCount } = options;
  if (!Number.isInteger(maxCount) || maxCount < 1 || maxCount > MAX_PAGE_SIZE) {
    throw new RangeError(`maxCount must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${String(maxCount)}`);
  }
  checkAfter(after);
}

export function checkReadStream(streamId: string, options: ReadStreamOptions): void {
  checkName('streamId', streamId, MAX_STREAM_ID_LENGTH);
  const { fromRevision, maxCount } = options;
  if (fromRevision !== undefined && !(typeof fromRevision === 'bigint' && fromRevision >= 0n)) {
    throw new RangeError(`fromRevision must be a bigint >= 0, got ${String(fromRevision)}`);
  }
  if (maxCount !== undefined && (!Number.isInteger(maxCount) || maxCount < 1)) {
    throw new RangeError(`maxCount must be a positive integer, got ${String(maxCount)}`);
  }
}

export function checkAfter(after: bigint | undefined): void {
  if (after !== undefined && !(typeof after === 'bigint' && after >= 0n)) {
    throw new RangeError(`after must be a bigint >= 0, got ${String(after)}`);
  }
}
