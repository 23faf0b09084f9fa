import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COMMAND_CONFLICT_RETRIES,
  type Decision,
  type StreamModel,
  UnreadableEventError,
  catchUpLoad,
  decideAndAppend,
  eventParser,
  handleCommand,
  readState,
  strictParser,
} from './command-handler.js';
import { AppError } from './errors.js';
import { MemoryEventStore } from '../../test/memory-event-store.js';
import { type ExpectedRevision, WrongExpectedRevisionError } from './ports/event-store.js';

type CounterEvent = { type: 'Added'; data: { by: number } } | { type: 'Cleared'; data: { reason: string } };

const parse = eventParser<CounterEvent>(
  {
    Added: z.object({ type: z.literal('Added'), data: z.object({ by: z.number().int() }) }),
    Cleared: z.object({ type: z.literal('Cleared'), data: z.object({ reason: z.string() }) }),
  },
  (type) => type === 'NotedElsewhere',
);

const counter: StreamModel<number, CounterEvent> = {
  initialState: () => 0,
  evolve: (total, event) => (event.type === 'Added' ? total + event.data.by : 0),
  parse,
};

const clock = { now: () => new Date('2026-01-02T03:04:05.000Z') };
const STREAM = 'counter-1';

/** Adds `by` unless the total would pass 10; answers the new total. */
const add =
  (by: number) =>
  (total: number): Decision<CounterEvent, number> => {
    if (total + by > 10) throw new AppError('CONFLICT', 'errors:tooMuch');
    return { events: [{ type: 'Added', data: { by } }], result: total + by };
  };

describe('readState', () => {
  it('folds every event of the stream from the initial state, with its last revision', async () => {
    const store = new MemoryEventStore();
    store.record(STREAM, [
      { type: 'Added', data: { by: 2 } },
      { type: 'Added', data: { by: 3 } },
    ]);
    const read = await readState(store, STREAM, counter);
    expect(read.state).toBe(5);
    expect(read.revision).toBe(1n);
    expect(read.events).toHaveLength(2);
  });

  it("answers the initial state and 'no_stream' for a stream that does not exist", async () => {
    const read = await readState(new MemoryEventStore(), STREAM, counter);
    expect(read).toEqual({ state: 0, revision: 'no_stream', events: [] });
  });

  it('passes over the events another capability owns on a shared stream', async () => {
    const store = new MemoryEventStore();
    store.record(STREAM, [
      { type: 'Added', data: { by: 2 } },
      { type: 'NotedElsewhere', data: {} },
    ]);
    expect(await readState(store, STREAM, counter)).toMatchObject({ state: 2, revision: 1n });
  });

  it('refuses an event of an unknown type, and one whose data fails its schema', async () => {
    const unknown = new MemoryEventStore();
    unknown.record(STREAM, [{ type: 'Multiplied', data: { by: 2 } }]);
    await expect(readState(unknown, STREAM, counter)).rejects.toThrow(
      new UnreadableEventError({ type: 'Multiplied', streamId: STREAM, revision: 0n }),
    );
    const invalid = new MemoryEventStore();
    invalid.record(STREAM, [{ type: 'Added', data: { by: 'two' } }]);
    await expect(readState(invalid, STREAM, counter)).rejects.toThrow('Unreadable Added at counter-1@0');
  });

  it("refuses through a capability's own reader what it cannot read", async () => {
    const store = new MemoryEventStore();
    store.record(STREAM, [{ type: 'Added', data: { by: 1 } }]);
    const model = { ...counter, parse: strictParser(() => undefined) };
    await expect(readState(store, STREAM, model)).rejects.toBeInstanceOf(UnreadableEventError);
  });
});

describe('handleCommand', () => {
  it("appends a new stream at 'no_stream' and answers the decision's result", async () => {
    const store = new MemoryEventStore();
    const handled = await handleCommand({ store, clock }, STREAM, counter, add(4));
    expect(handled).toMatchObject({ result: 4, state: 0, position: 1n, nextExpectedRevision: 0n });
    expect((await readState(store, STREAM, counter)).state).toBe(4);
  });

  it('gives the decider the clock’s now', async () => {
    const store = new MemoryEventStore();
    let seen: Date | undefined;
    await handleCommand({ store, clock }, STREAM, counter, (total, now) => {
      seen = now;
      return add(1)(total);
    });
    expect(seen).toEqual(clock.now());
  });

  it('appends nothing when the decision has no events', async () => {
    const store = new MemoryEventStore();
    const handled = await handleCommand({ store, clock }, STREAM, counter, () => ({ events: [], result: 'nothing' }));
    expect(handled.position).toBeUndefined();
    expect(store.appendCalls).toBe(0);
  });

  it('decides again on the current stream after a lost race, then succeeds', async () => {
    const store = new MemoryEventStore();
    let raced = false;
    store.beforeAppend = () => {
      if (raced) return;
      raced = true;
      store.record(STREAM, [{ type: 'Added', data: { by: 5 } }]);
    };
    const handled = await handleCommand({ store, clock }, STREAM, counter, add(2));
    expect(handled.result).toBe(7);
    expect(store.appendCalls).toBe(2);
    expect((await readState(store, STREAM, counter)).state).toBe(7);
  });

  it('answers the refusal decided on the state after the race', async () => {
    const store = new MemoryEventStore();
    store.beforeAppend = () => {
      store.beforeAppend = undefined;
      store.record(STREAM, [{ type: 'Added', data: { by: 9 } }]);
    };
    await expect(handleCommand({ store, clock }, STREAM, counter, add(2))).rejects.toMatchObject({ messageKey: 'errors:tooMuch' });
  });

  it(`answers busy when every one of 1 + ${COMMAND_CONFLICT_RETRIES} attempts loses its race`, async () => {
    const store = new MemoryEventStore();
    store.beforeAppend = () => store.record(STREAM, [{ type: 'Cleared', data: { reason: 'race' } }]);
    const busy = handleCommand({ store, clock }, STREAM, counter, add(1));
    await expect(busy).rejects.toEqual(new AppError('CONCURRENCY', 'errors:busy'));
    await expect(busy).rejects.toMatchObject({ code: 'CONCURRENCY' });
    expect(store.appendCalls).toBe(COMMAND_CONFLICT_RETRIES + 1);
  });

  it('appends companions atomically with the command, and rethrows a conflict on a companion without retrying', async () => {
    const store = new MemoryEventStore();
    const companion = (expectedRevision: 'no_stream' | bigint) => () => [
      { streamId: 'claim-1', events: [{ type: 'Claimed', data: {} }], expectedRevision },
    ];
    const first = await handleCommand({ store, clock }, STREAM, counter, add(1), { companions: companion('no_stream') });
    expect(first.position).toBe(2n);
    expect(await store.readStream('claim-1')).toHaveLength(1);

    const calls = store.appendCalls;
    const second = handleCommand({ store, clock }, STREAM, counter, add(1), { companions: companion('no_stream') });
    await expect(second).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(second).rejects.toMatchObject({ streamId: 'claim-1' });
    expect(store.appendCalls).toBe(calls + 1);
    expect((await readState(store, STREAM, counter)).state).toBe(1);
  });

  it("decides again after a conflict on one of the command's own other streams", async () => {
    const store = new MemoryEventStore();
    store.beforeAppend = () => {
      store.beforeAppend = undefined;
      store.record('counter-2', [{ type: 'Added', data: { by: 1 } }]);
    };
    let otherRevision: ExpectedRevision = 'no_stream';
    const handled = await handleCommand({ store, clock }, STREAM, counter, add(1), {
      load: async () => {
        otherRevision = (await readState(store, 'counter-2', counter)).revision;
        return readState(store, STREAM, counter);
      },
      ownAppends: () => [{ streamId: 'counter-2', events: [{ type: 'Added', data: { by: 1 } }], expectedRevision: otherRevision }],
    });
    expect(handled.result).toBe(1);
    expect(store.appendCalls).toBe(2);
    expect((await readState(store, 'counter-2', counter)).state).toBe(2);
  });

  it('decides a refusal made on a cached state again on the current one', async () => {
    const store = new MemoryEventStore();
    const loads: boolean[] = [];
    const handled = await handleCommand({ store, clock }, STREAM, counter, add(3), {
      load: async (current) => {
        loads.push(current);
        return current ? { ...(await readState(store, STREAM, counter)), current } : { state: 9, revision: 0n, current };
      },
    });
    expect(loads).toEqual([false, true]);
    expect(handled.result).toBe(3);
  });
});

describe('catchUpLoad', () => {
  /** The store, counting what each read asked for. */
  const readCounting = () => {
    const store = new MemoryEventStore();
    const readsFrom: (bigint | undefined)[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) => {
      readsFrom.push(options?.fromRevision);
      return readStream(streamId, options);
    };
    return { store, readsFrom };
  };

  it('given a state its caller folded, when nobody races, then it decides on it without reading the stream', async () => {
    const { store, readsFrom } = readCounting();
    store.record(STREAM, [{ type: 'Added', data: { by: 2 } }]);
    const handled = await decideAndAppend(
      { store, clock },
      STREAM,
      catchUpLoad(store, STREAM, counter, { state: 2, revision: 0n }),
      add(3),
    );
    expect(handled).toMatchObject({ result: 5, nextExpectedRevision: 1n });
    expect(readsFrom).toEqual([]);
  });

  it('given a lost race, when it decides again, then it reads only the events after the revision it knew', async () => {
    const { store, readsFrom } = readCounting();
    store.record(STREAM, [
      { type: 'Added', data: { by: 1 } },
      { type: 'Added', data: { by: 1 } },
    ]);
    let races = 2;
    store.beforeAppend = () => {
      if (races === 0) return;
      races -= 1;
      store.record(STREAM, [{ type: 'Added', data: { by: 3 } }]);
    };
    const handled = await decideAndAppend(
      { store, clock },
      STREAM,
      catchUpLoad(store, STREAM, counter, { state: 2, revision: 1n }),
      add(1),
    );
    expect(readsFrom).toEqual([2n, 3n]);
    expect(handled).toMatchObject({ result: 9, nextExpectedRevision: 4n });
    expect((await readState(store, STREAM, counter)).state).toBe(9);
  });

  it('given a stream that did not exist, when another writer created it first, then it reads it from its first event', async () => {
    const { store, readsFrom } = readCounting();
    store.beforeAppend = () => {
      store.beforeAppend = undefined;
      store.record(STREAM, [{ type: 'Added', data: { by: 9 } }]);
    };
    const load = catchUpLoad(store, STREAM, counter, { state: 0, revision: 'no_stream' });
    await expect(decideAndAppend({ store, clock }, STREAM, load, add(2))).rejects.toMatchObject({ messageKey: 'errors:tooMuch' });
    expect(readsFrom).toEqual([0n]);
  });

  it('given a lost race every time, when the bound is reached, then it answers busy as every command does', async () => {
    const { store } = readCounting();
    store.beforeAppend = () => store.record(STREAM, [{ type: 'Cleared', data: { reason: 'race' } }]);
    const load = catchUpLoad(store, STREAM, counter, { state: 0, revision: 'no_stream' });
    await expect(decideAndAppend({ store, clock }, STREAM, load, add(1))).rejects.toEqual(new AppError('CONCURRENCY', 'errors:busy'));
    expect(store.appendCalls).toBe(COMMAND_CONFLICT_RETRIES + 1);
  });
});
