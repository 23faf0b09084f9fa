// Proves the polling subscription wakes at once on an in-process commit (not at the next poll),
// reads in bounded pages from an exclusive checkpoint, and ends cleanly on close().
import type { RecordedEvent } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { AppendNotifier, PollingSubscription } from './polling-subscription.js';

const HOUR_MS = 3_600_000;

function fakeLog() {
  const events: RecordedEvent[] = [];
  const reads: Array<{ after: bigint; maxCount: number }> = [];
  const add = (count: number) => {
    for (let i = 0; i < count; i += 1) {
      const position = BigInt(events.length + 1);
      events.push({
        id: `e${position}`,
        streamId: 's',
        revision: position - 1n,
        position,
        type: 'T',
        data: {},
        metadata: {},
        recordedAt: new Date(0).toISOString(),
      });
    }
  };
  const readPage = (after: bigint, maxCount: number) => {
    reads.push({ after, maxCount });
    return events.filter((e) => e.position > after).slice(0, maxCount);
  };
  return { add, readPage, reads };
}

describe('PollingSubscription', () => {
  it('catches up in pages after the checkpoint, then wakes on notify long before the poll interval', async () => {
    // Given five events, a page size of two and a poll interval of an hour
    const log = fakeLog();
    log.add(5);
    const notifier = new AppendNotifier();
    const subscription = new PollingSubscription({
      after: 1n,
      readPage: log.readPage,
      notifier,
      pageSize: 2,
      pollIntervalMs: HOUR_MS,
      onEnd: () => {},
    });
    const iterator = subscription[Symbol.asyncIterator]();
    // When it is read, then it catches up from position 2 in pages of at most two
    const caughtUp = [];
    for (let i = 0; i < 4; i += 1) caughtUp.push((await iterator.next()).value?.position);
    expect(caughtUp).toEqual([2n, 3n, 4n, 5n]);
    expect(log.reads.every((r) => r.maxCount === 2)).toBe(true);
    // And an append followed by notify() is delivered at once
    const next = iterator.next();
    log.add(1);
    notifier.notify();
    const started = Date.now();
    expect((await next).value?.position).toBe(6n);
    expect(Date.now() - started).toBeLessThan(1_000);
    await subscription.close();
  });

  it('ends the iteration when closed while waiting, and reports its end once', async () => {
    const log = fakeLog();
    let ended = 0;
    const subscription = new PollingSubscription({
      after: undefined,
      readPage: log.readPage,
      notifier: new AppendNotifier(),
      pageSize: 10,
      pollIntervalMs: HOUR_MS,
      onEnd: () => (ended += 1),
    });
    const next = subscription[Symbol.asyncIterator]().next();
    await subscription.close();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
    expect(ended).toBe(1);
    expect(() => subscription[Symbol.asyncIterator]()).toThrow(/only once/);
  });
});
