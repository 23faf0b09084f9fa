/**
 * The event-store contract: one suite that every adapter must pass, so that code written against
 * the port behaves the same on SQLite and on KurrentDB. Each test works in streams of its own
 * (random names) and only looks at its own events in the global log, so the suite also holds on
 * a shared server that already has data.
 */
import { randomUUID } from 'node:crypto';
import { type EventStore, type LogSubscription, type RecordedEvent, WrongExpectedRevisionError } from '@quern/core';
import { afterEach, describe, expect, it } from 'vitest';
import { event, type Open, readOwnEvents, rejectionOf, streamName, take, UUID } from './contract-helpers.js';
import { describeMultiStreamAppends } from './contract-multi-stream.js';
import { describeRetries } from './contract-retries.js';

export function describeEventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`event store contract: ${name}`, () => {
    const opened: EventStore[] = [];
    const openStore = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    describeAppendAndRead(openStore);
    describeExpectedRevisions(openStore);
    describeGlobalLog(openStore);
    describeSubscriptions(openStore);
    describeConcurrency(openStore);
    describeInvalidInput(openStore);
    describeMultiStreamAppends(openStore);
    describeRetries(openStore);
  });
}

function describeAppendAndRead(open: Open): void {
  it('reads back appended events in revision order with ids, data, metadata and bigint revisions', async () => {
    // Given a new stream and three events, one with a chosen id and metadata
    const store = await open();
    const stream = streamName('roundtrip');
    const chosenId = randomUUID();
    const before = Date.now();
    const data = { amountMlx: '9000000000000000', nested: { list: [1, 'two', null, true] }, text: 'añejo ✓' };
    // When they are appended in one call
    const result = await store.append(
      stream,
      [
        event('Opened', data, { id: chosenId, metadata: { correlationId: 'c-1', causation: { by: 'test' } } }),
        event('Credited', { n: 1 }),
        event('Debited', { n: 2 }),
      ],
      'no_stream',
    );
    // Then the stream holds them in order, with bigint revisions and positions
    const events = await store.readStream(stream);
    expect(events.map((e) => [e.type, e.revision])).toEqual([
      ['Opened', 0n],
      ['Credited', 1n],
      ['Debited', 2n],
    ]);
    expect(result.nextExpectedRevision).toBe(2n);
    for (const e of events) {
      expect(typeof e.position).toBe('bigint');
      expect(e.streamId).toBe(stream);
      expect(e.id).toMatch(UUID);
      expect(e.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(e.recordedAt)).toBeGreaterThan(before - 60_000);
    }
    expect(events[1]?.position).toBeGreaterThan(events[0]?.position ?? 0n);
    expect(events[2]?.position).toBeGreaterThan(events[1]?.position ?? 0n);
    expect(result.position).toBe(events[2]?.position);
    expect(events[0]?.id).toBe(chosenId);
    expect(events[0]?.data).toEqual(data);
    expect(events[0]?.metadata).toEqual({ correlationId: 'c-1', causation: { by: 'test' } });
    expect(events[1]?.metadata).toEqual({});
  });

  it('reads an empty array for a stream that does not exist', async () => {
    const store = await open();
    expect(await store.readStream(streamName('missing'))).toEqual([]);
  });

  it('reads a stream from a revision and up to a count', async () => {
    // Given a stream of five events
    const store = await open();
    const stream = streamName('window');
    await store.append(
      stream,
      [0, 1, 2, 3, 4].map((n) => event('Counted', { n })),
      'no_stream',
    );
    // When a window is read, then only that window comes back
    const window = await store.readStream(stream, { fromRevision: 2n, maxCount: 2 });
    expect(window.map((e) => e.data.n)).toEqual([2, 3]);
    expect((await store.readStream(stream, { fromRevision: 4n })).map((e) => e.revision)).toEqual([4n]);
    expect(await store.readStream(stream, { fromRevision: 5n })).toEqual([]);
  });

  it('answers ping', async () => {
    const store = await open();
    await expect(store.ping()).resolves.toBeUndefined();
  });
}

function describeExpectedRevisions(open: Open): void {
  it("'no_stream' creates a stream once and then rejects with the actual revision", async () => {
    // Given a stream claimed with 'no_stream'
    const store = await open();
    const stream = streamName('claim');
    await store.append(stream, [event('Claimed')], 'no_stream');
    // When it is claimed again
    const error = await rejectionOf(store.append(stream, [event('Claimed')], 'no_stream'));
    // Then the second claim fails, says why, and wrote nothing
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0n, code: 'WRONG_EXPECTED_REVISION' });
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('an exact revision appends only when it matches the last revision', async () => {
    // Given a stream at revision 1
    const store = await open();
    const stream = streamName('exact');
    await store.append(stream, [event('A'), event('B')], 'no_stream');
    // When a writer that saw revision 1 appends, it succeeds
    const ok = await store.append(stream, [event('C')], 1n);
    expect(ok.nextExpectedRevision).toBe(2n);
    // And a writer that saw revision 1 earlier (now stale) is refused with the actual revision
    const stale = await rejectionOf(store.append(stream, [event('D')], 1n));
    expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
    expect(stale).toMatchObject({ expected: 1n, actual: 2n });
    // And a revision beyond 2^53 keeps its exact value in the error
    const huge = 2n ** 62n + 1n;
    expect(await rejectionOf(store.append(stream, [event('E')], huge))).toMatchObject({ expected: huge, actual: 2n });
    expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });

  it("an exact revision on a missing stream is refused with actual 'no_stream'", async () => {
    const store = await open();
    const stream = streamName('exact-missing');
    const error = await rejectionOf(store.append(stream, [event('A')], 0n));
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ expected: 0n, actual: 'no_stream' });
    expect(await store.readStream(stream)).toEqual([]);
  });

  it("'any' appends to a missing stream and to an existing one", async () => {
    const store = await open();
    const stream = streamName('any');
    expect((await store.append(stream, [event('A')], 'any')).nextExpectedRevision).toBe(0n);
    expect((await store.append(stream, [event('B'), event('C')], 'any')).nextExpectedRevision).toBe(2n);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
  });
}

function describeGlobalLog(open: Open): void {
  it('pages through the global log with an exclusive checkpoint', async () => {
    // Given five events in one stream
    const store = await open();
    const stream = streamName('paging');
    await store.append(
      stream,
      [0, 1, 2, 3, 4].map((n) => event('Paged', { n })),
      'no_stream',
    );
    const written = await store.readStream(stream);
    const first = written[0];
    if (!first) return expect.fail('nothing was written');
    // When the log is read in pages of two after the first event's position
    const ids = new Set(written.slice(1).map((e) => e.id));
    const { pages, own } = await readOwnEvents(store, first.position, ids, 2);
    // Then exactly the four later events come back, in order, none of them twice
    expect(own.map((e) => e.data.n)).toEqual([1, 2, 3, 4]);
    const positions = pages.flat().map((e) => e.position);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
    for (const [i, position] of positions.entries()) expect(position).toBeGreaterThan(i === 0 ? first.position : (positions[i - 1] ?? 0n));
    // And reading after the last event's own position never returns it again
    const last = written.at(-1);
    if (!last) return expect.fail('nothing was written');
    expect((await store.readAll({ after: last.position, maxCount: 10 })).some((e) => e.streamId === stream)).toBe(false);
  });

  it('reads the global log from the beginning when no checkpoint is given', async () => {
    const store = await open();
    const appended = await store.append(streamName('from-start'), [event('Started')], 'no_stream');
    const page = await store.readAll({ maxCount: 1 });
    expect(page).toHaveLength(1);
    expect(page[0]?.position).toBeLessThanOrEqual(appended.position);
  });
}

async function openSubscriptionAt(store: EventStore, label: string) {
  const stream = streamName(label);
  const anchor = await store.append(stream, [event('Anchor')], 'no_stream');
  return { stream, anchor };
}

function describeSubscriptions(open: Open): void {
  it('catches up from a checkpoint, then delivers events appended after subscribing', async () => {
    // Given an anchor event, then two more events in the same stream
    const store = await open();
    const { stream, anchor } = await openSubscriptionAt(store, 'subscribe');
    await store.append(stream, [event('Past', { n: 1 }), event('Past', { n: 2 })], 0n);
    // When a subscription starts after the anchor
    const subscription = store.subscribeToAll({ after: anchor.position });
    const iterator = subscription[Symbol.asyncIterator]();
    const own = (e: RecordedEvent) => e.streamId === stream;
    // Then it first catches up with the two past events (not the anchor itself)
    const past = await take(iterator, 2, own);
    expect(past.map((e) => [e.type, e.data.n])).toEqual([
      ['Past', 1],
      ['Past', 2],
    ]);
    // And then delivers an event appended after it went live
    await store.append(stream, [event('Live', { n: 3 })], 2n);
    const [live] = await take(iterator, 1, own);
    expect(live?.type).toBe('Live');
    expect(live?.position).toBeGreaterThan(past[1]?.position ?? 0n);
    await subscription.close();
  });

  it('delivers the log from the beginning when subscribed without a checkpoint', async () => {
    const store = await open();
    const { stream } = await openSubscriptionAt(store, 'subscribe-start');
    const subscription = store.subscribeToAll();
    const [anchor] = await take(subscription[Symbol.asyncIterator](), 1, (e) => e.streamId === stream);
    expect(anchor?.type).toBe('Anchor');
    await subscription.close();
  });

  it('close() ends an iteration that is waiting for live events', async () => {
    // Given a live subscription with nothing left to deliver
    const store = await open();
    const { anchor } = await openSubscriptionAt(store, 'close');
    const subscription: LogSubscription = store.subscribeToAll({ after: anchor.position });
    const received: RecordedEvent[] = [];
    const consumed = (async () => {
      for await (const e of subscription) received.push(e);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // When it is closed, then the for-await loop finishes without an error
    await subscription.close();
    await expect(Promise.race([consumed.then(() => 'ended'), new Promise((r) => setTimeout(() => r('hung'), 5_000))])).resolves.toBe(
      'ended',
    );
  });
}

function describeConcurrency(open: Open): void {
  it('lets exactly one of 50 concurrent appends with the same expected revision win', async () => {
    // Given a stream at revision 0
    const store = await open();
    const stream = streamName('race');
    await store.append(stream, [event('Opened')], 'no_stream');
    // When 50 writers append at once, all having seen revision 0
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => store.append(stream, [event('Raced', { i })], 0n)));
    // Then one wins and 49 are refused as stale
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const reason of lost) expect(reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n]);
  });

  it("lets exactly one of 50 concurrent 'no_stream' claims win", async () => {
    const store = await open();
    const stream = streamName('claim-race');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => store.append(stream, [event('Claimed', { i })], 'no_stream')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.readStream(stream)).toHaveLength(1);
  });
}

function describeInvalidInput(open: Open): void {
  it('accepts stream ids long enough to embed a 254-character e-mail address', async () => {
    const store = await open();
    const stream = `identity-key-email-${randomUUID()}-${'a'.repeat(300)}`.slice(0, 512);
    await store.append(stream, [event('KeyClaimed')], 'no_stream');
    expect((await store.readStream(stream)).map((e) => e.streamId)).toEqual([stream]);
  });

  it('refuses invalid appends and reads without writing anything', async () => {
    const store = await open();
    const stream = streamName('invalid');
    await expect(store.append(stream, [], 'any')).rejects.toThrow(TypeError);
    await expect(store.append('', [event('A')], 'any')).rejects.toThrow(TypeError);
    await expect(store.append('$system', [event('A')], 'any')).rejects.toThrow(TypeError);
    await expect(store.append(`${stream}-${'x'.repeat(512)}`, [event('A')], 'any')).rejects.toThrow(TypeError);
    await expect(store.append(stream, [event('$A')], 'any')).rejects.toThrow(TypeError);
    await expect(store.append(stream, [event('A', {}, { id: 'not-a-uuid' })], 'any')).rejects.toThrow(TypeError);
    await expect(store.append(stream, [event('A', { amount: 1n })], 'any')).rejects.toThrow(TypeError);
    await expect(store.append(stream, [event('A')], -1n)).rejects.toThrow(RangeError);
    expect(await store.readStream(stream)).toEqual([]);
    for (const maxCount of [0, -1, 1.5, 10_001]) await expect(store.readAll({ maxCount })).rejects.toThrow(RangeError);
    await expect(store.readAll({ after: -1n, maxCount: 1 })).rejects.toThrow(RangeError);
    await expect(store.readStream(stream, { maxCount: 0 })).rejects.toThrow(RangeError);
  });
}
