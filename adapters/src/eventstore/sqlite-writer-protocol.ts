/**
 * Messages between the SQLite event store (main thread) and its writer thread
 * (sqlite-writer-thread.ts). Only plain data crosses: errors travel as descriptions and are
 * rebuilt on the main thread as the port's typed errors, so callers see the same classes as when
 * the writer ran in-process.
 */
import { type AppendResult, DuplicateEventIdError, type ExpectedRevision, WrongExpectedRevisionError } from '@quern/core';

/** An event as the writer needs it: already validated and serialised on the main thread. */
export interface WireEvent {
  id: string;
  type: string;
  dataJson: string;
  metadataJson: string;
}

export interface WireStreamAppend {
  streamId: string;
  events: WireEvent[];
  expected: ExpectedRevision;
}

/** One call to append or appendToStreams. */
export interface WireCall {
  callId: number;
  appends: WireStreamAppend[];
}

export type ToWriter = { kind: 'calls'; calls: WireCall[] } | { kind: 'close' };

export type WireError =
  | { kind: 'wrong-revision'; streamId: string; expected: ExpectedRevision; actual: bigint | 'no_stream' }
  | { kind: 'duplicate-id'; streamId: string; message: string; cause?: WireError }
  | { kind: 'other'; name: string; message: string; code?: string };

export type WireOutcome = { callId: number; ok: true; results: AppendResult[] } | { callId: number; ok: false; error: WireError };

export type FromWriter =
  | {
      kind: 'outcomes';
      outcomes: WireOutcome[];
      /** At least one call wrote events (subscriptions should look). */
      committed: boolean;
      stats: { transactions: number; appends: number };
    }
  | { kind: 'ready' }
  | { kind: 'closed' }
  | { kind: 'failed'; error: WireError };

export function toWireError(error: unknown): WireError {
  if (error instanceof WrongExpectedRevisionError)
    return { kind: 'wrong-revision', streamId: error.streamId, expected: error.expected, actual: error.actual };
  if (error instanceof DuplicateEventIdError)
    return {
      kind: 'duplicate-id',
      streamId: error.streamId,
      message: error.message,
      cause: error.cause === undefined ? undefined : toWireError(error.cause),
    };
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    return { kind: 'other', name: error.name, message: error.message, code };
  }
  return { kind: 'other', name: 'Error', message: String(error) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.kind === 'wrong-revision') return new WrongExpectedRevisionError(wire.streamId, wire.expected, wire.actual);
  if (wire.kind === 'duplicate-id') {
    const prefix = `Stream ${wire.streamId}: `;
    const detail = wire.message.startsWith(prefix) ? wire.message.slice(prefix.length) : wire.message;
    return new DuplicateEventIdError(wire.streamId, detail, wire.cause ? { cause: fromWireError(wire.cause) } : undefined);
  }
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.code !== undefined) Object.assign(error, { code: wire.code });
  return error;
}
