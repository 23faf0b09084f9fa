/**
 * The event-store contract for appendToStreams: several streams written all-or-nothing, with
 * consecutive positions in the order of the appends, seen in that order by readers and
 * subscribers, and with the same optimistic-concurrency guarantees as a single append.
 */
import { randomUUID } from 'node:crypto';
import { type AppendResult, type EventStore, type StreamAppend, WrongExpectedRevisionError } from '@quern/core';
import { expect, it } from 'vitest';
import { event, type Open, rejectionOf, streamName, take } from './contract-helpers.js';

/** Concurrent callers in the race tests (the same number the single-append race uses). */
const RACERS = 50;

/** A stream holding `count` events, so that a test can append at an exact revision. */
async function streamWith(store: EventStore, label: string, count: number): Promise<string> {
  const stream = streamName(label);
  await store.append(
    stream,
    Array.from({ length: count }, (_, n) => event('Seeded', { n })),
    'no_stream',
  );
  return stream;
}

const typesOf = async (store: EventStore, stream: string) => (await store.readStream(stream)).map((e) => e.type);

export function describeMultiStreamAppends(open: Open): void {
  describeAtomicWrites(open);
  describeOrder(open);
  describeMultiStreamRaces(open);
  describeMultiStreamInvalidInput(open);
}

function describeAtomicWrites(open: Open): void {
  it('appends to several streams at once and returns one result per stream, in order', async () => {
    // Given an existing stream at revision 1 and a new one
    const store = await open();
    const existing = await streamWith(store, 'multi-existing', 2);
    const fresh = streamName('multi-fresh');
    // When both are appended to in one call
    const results = await store.appendToStreams([
      { streamId: existing, events: [event('Debited', { n: 1 })], expectedRevision: 1n },
      { streamId: fresh, events: [event('Opened'), event('Credited', { n: 1 })], expectedRevision: 'no_stream' },
    ]);
    // Then each stream holds its events and each result describes its own stream
    expect(await typesOf(store, existing)).toEqual(['Seeded', 'Seeded', 'Debited']);
    expect(await typesOf(store, fresh)).toEqual(['Opened', 'Credited']);
    const [lastOfExisting] = (await store.readStream(existing)).slice(-1);
    const [lastOfFresh] = (await store.readStream(fresh)).slice(-1);
    expect(results).toEqual([
      { nextExpectedRevision: 2n, position: lastOfExisting?.position },
      { nextExpectedRevision: 1n, position: lastOfFresh?.position },
    ]);
  });

  it('appends nothing to any stream when one expected revision is stale, and names that stream', async () => {
    // Given a new stream, a stream at revision 0 and a stream at revision 1
    const store = await open();
    const fresh = streamName('atomic-fresh');
    const current = await streamWith(store, 'atomic-current', 1);
    const moved = await streamWith(store, 'atomic-moved', 2);
    // When one call appends to all three, but believes the third is still at revision 0
    const error = await rejectionOf(
      store.appendToStreams([
        { streamId: fresh, events: [event('Opened')], expectedRevision: 'no_stream' },
        { streamId: current, events: [event('Debited')], expectedRevision: 0n },
        { streamId: moved, events: [event('Credited')], expectedRevision: 0n },
      ]),
    );
    // Then the call is refused for the stale stream, with its actual revision
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: moved, expected: 0n, actual: 1n, code: 'WRONG_EXPECTED_REVISION' });
    // And none of the three streams received anything
    expect(await store.readStream(fresh)).toEqual([]);
    expect(await typesOf(store, current)).toEqual(['Seeded']);
    expect(await typesOf(store, moved)).toEqual(['Seeded', 'Seeded']);
  });

  it("refuses the whole call when a 'no_stream' claim is taken, even as the first append", async () => {
    const store = await open();
    const claimed = await streamWith(store, 'atomic-claimed', 1);
    const other = streamName('atomic-other');
    const error = await rejectionOf(
      store.appendToStreams([
        { streamId: claimed, events: [event('Claimed')], expectedRevision: 'no_stream' },
        { streamId: other, events: [event('Opened')], expectedRevision: 'any' },
      ]),
    );
    expect(error).toMatchObject({ streamId: claimed, expected: 'no_stream', actual: 0n });
    expect(await store.readStream(other)).toEqual([]);
  });

  it('accepts a single stream, like append', async () => {
    const store = await open();
    const stream = streamName('multi-single');
    const [result] = await store.appendToStreams([{ streamId: stream, events: [event('Opened')], expectedRevision: 'any' }]);
    expect(result?.nextExpectedRevision).toBe(0n);
    expect(await typesOf(store, stream)).toEqual(['Opened']);
  });
}

function describeOrder(open: Open): void {
  it('gives the events consecutive positions in the order of the appends', async () => {
    // Given two streams appended to in one call, two events each
    const store = await open();
    const first = streamName('order-a');
    const second = streamName('order-b');
    await store.appendToStreams([
      { streamId: first, events: [event('A1'), event('A2')], expectedRevision: 'no_stream' },
      { streamId: second, events: [event('B1'), event('B2')], expectedRevision: 'no_stream' },
    ]);
    const written = [...(await store.readStream(first)), ...(await store.readStream(second))];
    const start = written[0];
    if (!start) return expect.fail('nothing was written');
    // When the log is read right after the first of them
    const next = await store.readAll({ after: start.position, maxCount: 3 });
    // Then the other three follow it directly, in the order of the appends, nothing in between
    expect(next.map((e) => [e.streamId, e.type])).toEqual([
      [first, 'A2'],
      [second, 'B1'],
      [second, 'B2'],
    ]);
    expect(next.map((e) => e.position)).toEqual(written.slice(1).map((e) => e.position));
    for (const [i, e] of written.entries()) if (i > 0) expect(e.position).toBeGreaterThan(written[i - 1]?.position ?? 0n);
  });

  it('delivers the events to a live subscriber in the order of the appends', async () => {
    // Given a live subscription after an anchor event
    const store = await open();
    const first = streamName('sub-a');
    const second = streamName('sub-b');
    const anchor = await store.append(streamName('sub-anchor'), [event('Anchor')], 'no_stream');
    const subscription = store.subscribeToAll({ after: anchor.position });
    const iterator = subscription[Symbol.asyncIterator]();
    // When two streams are appended to in one call
    await store.appendToStreams([
      { streamId: second, events: [event('B1')], expectedRevision: 'no_stream' },
      { streamId: first, events: [event('A1'), event('A2')], expectedRevision: 'no_stream' },
    ]);
    // Then the subscriber receives all three, in the order of the appends
    const own = new Set([first, second]);
    const delivered = await take(iterator, 3, (e) => own.has(e.streamId));
    expect(delivered.map((e) => e.type)).toEqual(['B1', 'A1', 'A2']);
    await subscription.close();
  });
}

function describeMultiStreamRaces(open: Open): void {
  it(`lets exactly one of ${RACERS} concurrent multi-stream appends racing on a shared stream win`, async () => {
    // Given a shared stream at revision 0, and one private new stream per racer
    const store = await open();
    const shared = await streamWith(store, 'race-shared', 1);
    const privates = Array.from({ length: RACERS }, (_, i) => streamName(`race-private-${i}`));
    // When every racer appends to its private stream and to the shared one, all having seen revision 0
    const results = await Promise.allSettled(
      privates.map((own, i) =>
        store.appendToStreams([
          { streamId: own, events: [event('Reserved', { i })], expectedRevision: 'no_stream' },
          { streamId: shared, events: [event('Raced', { i })], expectedRevision: 0n },
        ]),
      ),
    );
    // Then one wins, the others are refused as stale on the shared stream
    const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ streamId: shared, expected: 0n, actual: 1n });
    }
    // And only the winner's private stream holds anything
    const winner = winners[0] ?? -1;
    expect((await store.readStream(shared)).map((e) => e.data.i)).toEqual([undefined, winner]);
    for (const [i, own] of privates.entries()) expect(await store.readStream(own)).toHaveLength(i === winner ? 1 : 0);
  });

  it(`lets ${RACERS} concurrent multi-stream appends over disjoint streams all succeed`, async () => {
    // Given pairs of streams no two callers share
    const store = await open();
    const pairs = Array.from({ length: RACERS }, (_, i) => [streamName(`disjoint-${i}-a`), streamName(`disjoint-${i}-b`)] as const);
    // When every pair is appended to at once
    const results = await Promise.all(
      pairs.map(([a, b], i) =>
        store.appendToStreams([
          { streamId: a, events: [event('Debited', { i })], expectedRevision: 'no_stream' },
          { streamId: b, events: [event('Credited', { i })], expectedRevision: 'no_stream' },
        ]),
      ),
    );
    // Then all succeed, each stream holds its one event, and no position was handed out twice
    const positions = results.flat().map((r: AppendResult) => r.position);
    expect(new Set(positions).size).toBe(RACERS * 2);
    for (const [a, b] of pairs) {
      expect(await typesOf(store, a)).toEqual(['Debited']);
      expect(await typesOf(store, b)).toEqual(['Credited']);
    }
  });
}

function describeMultiStreamInvalidInput(open: Open): void {
  it('refuses programming errors without appending anything', async () => {
    // Given a valid append that rides along with each invalid one
    const store = await open();
    const stream = streamName('multi-invalid');
    const valid: StreamAppend = { streamId: stream, events: [event('A')], expectedRevision: 'any' };
    const sharedId = randomUUID();
    // When a call is malformed, then it is refused as a programming error
    await expect(store.appendToStreams([])).rejects.toThrow(TypeError);
    await expect(store.appendToStreams([valid, { ...valid, events: [event('B')] }])).rejects.toThrow(/more than once/);
    await expect(store.appendToStreams([valid, { streamId: streamName('empty'), events: [], expectedRevision: 'any' }])).rejects.toThrow(
      TypeError,
    );
    await expect(store.appendToStreams([valid, { streamId: '$system', events: [event('A')], expectedRevision: 'any' }])).rejects.toThrow(
      TypeError,
    );
    await expect(
      store.appendToStreams([valid, { streamId: streamName('neg'), events: [event('A')], expectedRevision: -1n }]),
    ).rejects.toThrow(RangeError);
    await expect(
      store.appendToStreams([
        { ...valid, events: [event('A', {}, { id: sharedId })] },
        { streamId: streamName('same-id'), events: [event('B', {}, { id: sharedId })], expectedRevision: 'any' },
      ]),
    ).rejects.toThrow(/ids repeat/);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({
      streamId: `${stream}-${i}`,
      events: [event('A')],
      expectedRevision: 'any' as const,
    }));
    await expect(store.appendToStreams(tooMany)).rejects.toThrow(RangeError);
    // And the valid stream that rode along received nothing
    expect(await store.readStream(stream)).toEqual([]);
    expect(await store.readStream(`${stream}-0`)).toEqual([]);
  });
}
