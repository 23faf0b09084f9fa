// Proves a command's evidence is gathered for the very state each attempt decides on, so a decision retried after a lost race never uses the evidence of the stale read.
import { describe, expect, it } from 'vitest';
import { type StreamModel, strictParser } from './command-handler.js';
import { handleCommandWithEvidence } from './command-evidence.js';
import { MemoryEventStore } from '../../test/memory-event-store.js';

type Noted = { type: 'Noted'; data: { n: number } };
const read = (recorded: { type: string; data: Record<string, unknown> }): Noted | undefined =>
  recorded.type === 'Noted' && typeof recorded.data.n === 'number' ? { type: 'Noted', data: { n: recorded.data.n } } : undefined;
const count: StreamModel<number, Noted> = { initialState: () => 0, evolve: (total) => total + 1, parse: strictParser(read) };
const clock = { now: () => new Date('2026-01-02T03:04:05.000Z') };

describe('handleCommandWithEvidence', () => {
  it('given no race, when handled, then the decision gets the evidence gathered for the state read', async () => {
    const store = new MemoryEventStore();
    store.record('s', [{ type: 'Noted', data: { n: 1 } }]);
    const handled = await handleCommandWithEvidence(
      { store, clock },
      's',
      count,
      async (total) => total * 10,
      (total, evidence) => ({ events: [{ type: 'Noted', data: { n: evidence } }], result: [total, evidence] }),
    );
    expect(handled.result).toEqual([1, 10]);
    expect((await store.readStream('s')).map((event) => event.data.n)).toEqual([1, 10]);
  });

  it('given another writer appends first, when decided again, then the evidence is gathered again for the new state', async () => {
    const store = new MemoryEventStore();
    let raced = false;
    store.beforeAppend = () => {
      if (raced) return;
      raced = true;
      store.record('s', [{ type: 'Noted', data: { n: 0 } }]);
    };
    const gathered: number[] = [];
    const handled = await handleCommandWithEvidence(
      { store, clock },
      's',
      count,
      async (total) => {
        gathered.push(total);
        return `seen ${total}`;
      },
      (_total, evidence) => ({ events: [{ type: 'Noted', data: { n: 2 } }], result: evidence }),
    );
    expect(gathered).toEqual([0, 1]);
    expect(handled.result).toBe('seen 1');
    expect(handled.evidence).toBe('seen 1');
  });

  it('given own appends, when decided, then they are built with the same evidence and appended atomically', async () => {
    const store = new MemoryEventStore();
    await handleCommandWithEvidence(
      { store, clock },
      's',
      count,
      async () => 'other',
      () => ({ events: [{ type: 'Noted', data: { n: 1 } }], result: undefined }),
      {
        ownAppends: (_decision, _loaded, evidence) => [
          { streamId: evidence, events: [{ type: 'Noted', data: { n: 9 } }], expectedRevision: 'no_stream' },
        ],
      },
    );
    expect((await store.readStream('other')).map((event) => event.data.n)).toEqual([9]);
  });
});
