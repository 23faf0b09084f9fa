/**
 * Turns a KurrentDB recorded event into the port's RecordedEvent, refusing anything the port
 * cannot represent faithfully instead of passing on a wrong position or a non-JSON payload.
 */
import { type Position, type ReadPosition, START } from '@kurrent/kurrentdb-client';
import type { RecordedEvent } from '@quern/core';

/**
 * A position our port handed out, turned back into KurrentDB's (commit, prepare) pair. Valid
 * because every event we hand out has commit = prepare (see mapEvent); `undefined` is the start.
 */
export function toReadPosition(after: bigint | undefined): ReadPosition {
  if (after === undefined) return START;
  const position: Position = { commit: after, prepare: after };
  return position;
}

/** The fields of the client's RecordedEvent this adapter reads (its own type is a deep union). */
export interface KurrentRecordedEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  isJson: boolean;
  data: unknown;
  metadata: unknown;
  position?: { commit: bigint; prepare: bigint } | undefined;
}

/**
 * KurrentDB 25.1's multi-stream append carries metadata as a map of string values only, while
 * our port allows any JSON object. The adapter therefore sends such metadata as one string
 * property holding its JSON, and mapEvent unwraps it, so a reader never sees the difference.
 */
export const METADATA_ENVELOPE_KEY = 'quern-metadata-json';

export function wrapMetadata(metadata: Record<string, unknown>): Record<string, string> | undefined {
  if (Object.keys(metadata).length === 0) return undefined;
  return { [METADATA_ENVELOPE_KEY]: JSON.stringify(metadata) };
}

function unwrapMetadata(metadata: Record<string, unknown>, where: string): unknown {
  const wrapped = metadata[METADATA_ENVELOPE_KEY];
  if (wrapped === undefined) return metadata;
  if (typeof wrapped !== 'string') throw new Error(`${where} has a ${METADATA_ENVELOPE_KEY} property that is not a string`);
  return JSON.parse(wrapped) as unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

export function mapEvent(event: KurrentRecordedEvent): RecordedEvent {
  const where = `event ${event.id} in ${event.streamId}`;
  const { position } = event;
  if (!position) {
    // Stream reads carry positions only from server 22.6 on.
    throw new Error(`KurrentDB returned no position for ${where}; Quern needs KurrentDB/EventStoreDB 22.6 or later`);
  }
  if (position.commit !== position.prepare) {
    throw new Error(`${where} was written in an explicit transaction; its commit position is not unique`);
  }
  if (!event.isJson || !isPlainObject(event.data)) throw new Error(`${where} does not hold a JSON object`);
  // Events appended without metadata come back with none; the port always has an object.
  const stored = event.metadata === undefined ? {} : event.metadata;
  if (!isPlainObject(stored)) throw new Error(`${where} has metadata that is not a JSON object`);
  const metadata = unwrapMetadata(stored, where);
  if (!isPlainObject(metadata)) throw new Error(`${where} has metadata that is not a JSON object`);
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: position.commit,
    type: event.type,
    data: event.data,
    metadata,
    recordedAt: event.created.toISOString(),
  };
}
