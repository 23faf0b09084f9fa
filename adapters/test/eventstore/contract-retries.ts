/**
 * The event-store contract for retried appends (ADR 018): an append whose event ids are already
 * recorded exactly where it would put them is a no-op that answers with the original result;
 * one that only partly matches is refused with DuplicateEventIdError; either way nothing is
 * appended twice. Both adapters must agree on every case here.
 */
import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError, type EventStore, type NewEvent, type StreamAppend } from '@quern/core';
import { expect, it } from 'vitest';
import { event, type Open, rejectionOf, streamName } from './contract-helpers.js';

/** Events with ids chosen by the caller, as a retrying caller must choose them. */
const withIds = (...types: string[]): NewEvent[] => types.map((type) => event(type, { type }, { id: randomUUID() }));

const typesOf = async (store: EventStore, stream: string) => (await store.readStream(stream)).map((e) => e.type);

export function describeRetries(open: Open): void {
  describeSingleStreamRetries(open);
  describeRefusedRetries(open);
  describeMultiStreamRetries(open);
}

function describeSingleStreamRetries(open: Open): void {
  it('answers a retried exact-revision append with the original result and appends nothing, even after the stream moved on', async () => {
    // Given two events appended at revision 0 of a stream
    const store = await open();
    const stream = streamName('retry-exact');
    await store.append(stream, [event('Opened')], 'no_stream');
    const events = withIds('A', 'B');
    const original = await store.append(stream, events, 0n);
    // When the same append is retried, and again after another writer appended
    const retried = await store.append(stream, events, 0n);
    await store.append(stream, [event('Later')], 2n);
    const retriedLater = await store.append(stream, events, 0n);
    // Then every retry answers with the original revision and position, and nothing repeats
    expect(retried).toEqual(original);
    expect(retriedLater).toEqual(original);
    expect(await typesOf(store, stream)).toEqual(['Opened', 'A', 'B', 'Later']);
  });

  it("answers a retried 'no_stream' append with the original result", async () => {
    const store = await open();
    const stream = streamName('retry-no-stream');
    const events = withIds('Claimed');
    const original = await store.append(stream, events, 'no_stream');
    expect(await store.append(stream, events, 'no_stream')).toEqual(original);
    expect(await typesOf(store, stream)).toEqual(['Claimed']);
  });

  it("answers a retried 'any' append with the original result while its events are the stream's last", async () => {
    const store = await open();
    const stream = streamName('retry-any');
    await store.append(stream, [event('Opened')], 'any');
    const events = withIds('A', 'B');
    const original = await store.append(stream, events, 'any');
    expect(await store.append(stream, events, 'any')).toEqual(original);
    expect(await typesOf(store, stream)).toEqual(['Opened', 'A', 'B']);
  });

  it('lets two concurrent copies of one append both succeed with one result, written once', async () => {
    const store = await open();
    const stream = streamName('retry-concurrent');
    const events = withIds('Once');
    const [first, second] = await Promise.all([store.append(stream, events, 'no_stream'), store.append(stream, events, 'no_stream')]);
    expect(second).toEqual(first);
    expect(await typesOf(store, stream)).toEqual(['Once']);
  });
}

function describeRefusedRetries(open: Open): void {
  it('refuses an append whose first id is recorded where it would go but whose second is not', async () => {
    // Given two events appended at revision 0
    const store = await open();
    const stream = streamName('partial-first');
    await store.append(stream, [event('Opened')], 'no_stream');
    const [a, b] = withIds('A', 'B');
    if (!a || !b) return expect.fail('no events');
    await store.append(stream, [a, b], 0n);
    // When a "retry" keeps the first event but brings a different second one
    const error = await rejectionOf(store.append(stream, [a, event('C', {}, { id: randomUUID() })], 0n));
    // Then it is refused as a duplicate, not a stale revision, and nothing was appended
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(error).toMatchObject({ streamId: stream, code: 'DUPLICATE_EVENT_ID' });
    expect(await typesOf(store, stream)).toEqual(['Opened', 'A', 'B']);
  });

  it('refuses an append whose second id is recorded where it would go but whose first is not', async () => {
    const store = await open();
    const stream = streamName('partial-second');
    const [a, b] = withIds('A', 'B');
    if (!a || !b) return expect.fail('no events');
    await store.append(stream, [a, b], 'no_stream');
    const error = await rejectionOf(store.append(stream, [event('X', {}, { id: randomUUID() }), b], 'no_stream'));
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(await typesOf(store, stream)).toEqual(['A', 'B']);
  });

  it("refuses an 'any' append of events that are in the stream but no longer its last", async () => {
    // Given events appended with 'any', and then another event after them
    const store = await open();
    const stream = streamName('any-moved');
    const events = withIds('A', 'B');
    await store.append(stream, events, 'any');
    await store.append(stream, [event('Later')], 'any');
    // When they are appended with 'any' again, then that is refused and nothing repeats
    expect(await rejectionOf(store.append(stream, events, 'any'))).toBeInstanceOf(DuplicateEventIdError);
    expect(await typesOf(store, stream)).toEqual(['A', 'B', 'Later']);
  });

  it('still refuses a stale append with fresh ids as a wrong expected revision', async () => {
    const store = await open();
    const stream = streamName('stale-fresh');
    await store.append(stream, withIds('A', 'B'), 'no_stream');
    expect(await rejectionOf(store.append(stream, withIds('C'), 0n))).toMatchObject({ code: 'WRONG_EXPECTED_REVISION', actual: 1n });
  });
}

function describeMultiStreamRetries(open: Open): void {
  it('answers a retried multi-stream append with the original results and appends nothing', async () => {
    // Given a multi-stream append over an existing and a new stream
    const store = await open();
    const existing = streamName('multi-retry-a');
    const fresh = streamName('multi-retry-b');
    await store.append(existing, [event('Opened')], 'no_stream');
    const appends: StreamAppend[] = [
      { streamId: existing, events: withIds('Debited'), expectedRevision: 0n },
      { streamId: fresh, events: withIds('Opened', 'Credited'), expectedRevision: 'no_stream' },
    ];
    const original = await store.appendToStreams(appends);
    // When it is retried as is
    const retried = await store.appendToStreams(appends);
    // Then the answer is the original one and each stream holds its events once
    expect(retried).toEqual(original);
    expect(await typesOf(store, existing)).toEqual(['Opened', 'Debited']);
    expect(await typesOf(store, fresh)).toEqual(['Opened', 'Credited']);
  });

  it('refuses a multi-stream "retry" of which only one stream was recorded, appending nothing', async () => {
    // Given a stream holding an event appended on its own
    const store = await open();
    const recorded = streamName('mixed-recorded');
    const other = streamName('mixed-other');
    const events = withIds('Debited');
    await store.append(recorded, events, 'no_stream');
    // When a multi-stream append repeats that event and adds a stream nobody wrote
    const error = await rejectionOf(
      store.appendToStreams([
        { streamId: recorded, events, expectedRevision: 'no_stream' },
        { streamId: other, events: withIds('Credited'), expectedRevision: 'no_stream' },
      ]),
    );
    // Then it is refused as a duplicate and the other stream stays empty
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream(other)).toEqual([]);
    expect(await typesOf(store, recorded)).toEqual(['Debited']);
  });
}
