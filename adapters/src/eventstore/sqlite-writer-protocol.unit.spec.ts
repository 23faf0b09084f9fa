// Proves that errors crossing from the SQLite writer thread come back as the port's typed errors,
// with the fields callers read (stream, revisions, code), and that other errors keep their code.
import { DuplicateEventIdError, WrongExpectedRevisionError } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { fromWireError, toWireError } from './sqlite-writer-protocol.js';

/** What a structured clone across threads would deliver. */
const acrossThreads = (error: unknown) => fromWireError(structuredClone(toWireError(error)));

describe('SQLite writer protocol errors', () => {
  it('rebuilds a wrong expected revision with its stream and revisions', () => {
    // Given a refusal in the writer thread
    const original = new WrongExpectedRevisionError('wallet-a', 3n, 'no_stream');
    // When it crosses to the main thread
    const rebuilt = acrossThreads(original);
    // Then it is the same class with the same fields and message
    expect(rebuilt).toBeInstanceOf(WrongExpectedRevisionError);
    expect(rebuilt).toMatchObject({ streamId: 'wallet-a', expected: 3n, actual: 'no_stream', code: 'WRONG_EXPECTED_REVISION' });
    expect(rebuilt.message).toBe(original.message);
  });

  it('rebuilds a duplicate event id with its message and its cause', () => {
    const cause = Object.assign(new Error('UNIQUE constraint failed: events.id'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const original = new DuplicateEventIdError('s-1, s-2', 'an event id of this append is already recorded elsewhere in the log', {
      cause,
    });
    const rebuilt = acrossThreads(original);
    expect(rebuilt).toBeInstanceOf(DuplicateEventIdError);
    expect(rebuilt.message).toBe(original.message);
    expect(rebuilt).toMatchObject({ streamId: 's-1, s-2', code: 'DUPLICATE_EVENT_ID' });
    expect((rebuilt as Error).cause).toMatchObject({ message: cause.message, code: 'SQLITE_CONSTRAINT_UNIQUE' });
  });

  it('keeps the name, message and code of any other error, and describes a thrown non-error', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    busy.name = 'SqliteError';
    expect(acrossThreads(busy)).toMatchObject({ name: 'SqliteError', message: 'database is locked', code: 'SQLITE_BUSY' });
    expect(acrossThreads('not an error')).toMatchObject({ name: 'Error', message: 'not an error' });
  });
});
