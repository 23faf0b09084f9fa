// Proves the KurrentDB adapter applies the port's retry rule (ADR 018) on top of what a KurrentDB
// server answers, modelled by FakeKurrentServer since no server runs here: true retries get the
// original result, partial and mixed ones DuplicateEventIdError, stale ones a wrong revision.
import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError, type ExpectedRevision, type NewEvent, WrongExpectedRevisionError } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { kurrentAppender } from './kurrentdb-append.js';
import { FakeKurrentServer } from '../../test/eventstore/kurrentdb-fake-server.js';
import { METADATA_ENVELOPE_KEY } from './kurrentdb-mapping.js';
import { prepareAppend } from './validation.js';

const withIds = (...types: string[]): NewEvent[] => types.map((type) => ({ type, data: { type }, id: randomUUID() }));
const prepared = (streamId: string, events: NewEvent[], expected: ExpectedRevision) => ({
  streamId,
  events: prepareAppend(streamId, events, expected),
  expected,
});

function setUp() {
  const server = new FakeKurrentServer();
  const appender = kurrentAppender(server.asClient());
  const append = (streamId: string, events: NewEvent[], expected: ExpectedRevision) =>
    appender.appendOne(prepared(streamId, events, expected));
  const types = (streamId: string) => (server.streams.get(streamId) ?? []).map((e) => e.type);
  return { server, appender, append, types };
}

describe('KurrentDB appends: retries of one stream', () => {
  it('answers an exact-revision retry with the original result after the stream moved on', async () => {
    const { append, types } = setUp();
    await append('s', withIds('Opened'), 'no_stream');
    const events = withIds('A', 'B');
    const original = await append('s', events, 0n);
    await append('s', withIds('Later'), 2n);
    expect(await append('s', events, 0n)).toEqual(original);
    expect(types('s')).toEqual(['Opened', 'A', 'B', 'Later']);
  });

  it("sends an 'any' retry of the stream's last events as an exact revision, so the server's index decides", async () => {
    const { server, append, types } = setUp();
    await append('s', withIds('Opened'), 'any');
    const events = withIds('A', 'B');
    const original = await append('s', events, 'any');
    server.idCache.clear();
    expect(await append('s', events, 'any')).toEqual(original);
    expect(server.calls.at(-1)?.states).toEqual([0n]);
    expect(types('s')).toEqual(['Opened', 'A', 'B']);
  });

  it("refuses an 'any' append of events the server's cache finds earlier in the stream", async () => {
    const { append, types } = setUp();
    const events = withIds('A');
    await append('s', events, 'any');
    await append('s', withIds('Later'), 'any');
    expect(await append('s', events, 'any').catch((e: unknown) => e)).toBeInstanceOf(DuplicateEventIdError);
    expect(types('s')).toEqual(['A', 'Later']);
  });

  it("writes an old 'any' retry again once the server's cache forgot its ids (the documented difference)", async () => {
    const { server, append, types } = setUp();
    const events = withIds('A');
    await append('s', events, 'any');
    await append('s', withIds('Later'), 'any');
    server.idCache.clear();
    await append('s', events, 'any');
    expect(types('s')).toEqual(['A', 'Later', 'A']);
  });

  it('refuses partial retries as duplicates whichever event differs, writing nothing', async () => {
    const { append, types } = setUp();
    const [a, b] = withIds('A', 'B');
    if (!a || !b) return expect.fail('no events');
    await append('s', [a, b], 'no_stream');
    const other = () => withIds('X')[0] ?? a;
    expect(await append('s', [a, other()], 'no_stream').catch((e: unknown) => e)).toBeInstanceOf(DuplicateEventIdError);
    expect(await append('s', [other(), b], 'no_stream').catch((e: unknown) => e)).toBeInstanceOf(DuplicateEventIdError);
    expect(await append('s', [other(), b], 'any').catch((e: unknown) => e)).toBeInstanceOf(DuplicateEventIdError);
    expect(types('s')).toEqual(['A', 'B']);
  });

  it('refuses a stale append with fresh ids as a wrong expected revision with the actual revision', async () => {
    const { append } = setUp();
    await append('s', withIds('A', 'B'), 'no_stream');
    const error = await append('s', withIds('C'), 0n).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: 's', expected: 0n, actual: 1n });
  });
});

describe('KurrentDB appends: several streams', () => {
  it('answers a multi-stream retry with the original results, and wraps metadata for the server', async () => {
    const { server, appender, types } = setUp();
    const appends = [
      prepared('a', [{ type: 'Debited', data: {}, id: randomUUID(), metadata: { by: { user: 'u' } } }], 'no_stream'),
      prepared('b', withIds('Credited'), 'no_stream'),
    ];
    const original = await appender.appendMany(appends);
    expect(await appender.appendMany(appends)).toEqual(original);
    expect(types('a')).toEqual(['Debited']);
    expect(server.streams.get('a')?.[0]?.metadata).toEqual({ [METADATA_ENVELOPE_KEY]: '{"by":{"user":"u"}}' });
  });

  it('refuses a mixed retry (one stream recorded, one not) as a duplicate, writing nothing', async () => {
    const { appender, append, types } = setUp();
    const events = withIds('Debited');
    await append('a', events, 'no_stream');
    const error = await appender
      .appendMany([prepared('a', events, 'no_stream'), prepared('b', withIds('Credited'), 'no_stream')])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'DuplicateEventIdError', streamId: 'a' });
    expect(types('b')).toEqual([]);
  });

  it('names the stale stream with its actual revision when fresh events meet a stale revision', async () => {
    const { appender, append } = setUp();
    await append('b', withIds('Opened', 'Moved'), 'no_stream');
    const error = await appender
      .appendMany([prepared('a', withIds('Debited'), 'no_stream'), prepared('b', withIds('Credited'), 0n)])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: 'b', expected: 0n, actual: 1n });
  });

  it('returns each stream its own last position, in the order of the appends', async () => {
    const { server, appender } = setUp();
    const results = await appender.appendMany([prepared('a', withIds('A1', 'A2'), 'any'), prepared('b', withIds('B1'), 'any')]);
    expect(results).toEqual([
      { nextExpectedRevision: 1n, position: server.streams.get('a')?.[1]?.position?.commit },
      { nextExpectedRevision: 0n, position: server.streams.get('b')?.[0]?.position?.commit },
    ]);
    expect(results[1]?.position).toBeGreaterThan(results[0]?.position ?? 0n);
  });
});
