// Proves the batcher hands out what has arrived in bounded batches, in order, surfaces feed errors after the items before them, and closes promptly.
import { describe, expect, it } from 'vitest';
import { createBatcher, type ClosableFeed } from './batcher.js';

/** A feed the test pushes into, like a live log subscription. */
function manualFeed<T>() {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let failure: Error | undefined;
  const feed: ClosableFeed<T> = {
    async close() {
      closed = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (items.length > 0) yield items.shift() as T;
        if (failure) throw failure;
        if (closed) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  return {
    feed,
    push(...more: T[]) {
      items.push(...more);
      wake?.();
    },
    /** Items the batcher has not pulled from the feed yet. */
    unread: () => items.length,
    fail(error: Error) {
      failure = error;
      wake?.();
    },
  };
}

const limits = { maxBatchSize: 3, maxBufferedItems: 6, closeTimeoutMs: 1_000 };
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createBatcher', () => {
  it('given items that arrived together, when batches are taken, then they come in order, at most maxBatchSize each', async () => {
    const source = manualFeed<number>();
    const batcher = createBatcher(source.feed, limits);
    source.push(1, 2, 3, 4, 5);
    await tick();
    expect(await batcher.next()).toEqual([1, 2, 3]);
    expect(await batcher.next()).toEqual([4, 5]);
    await batcher.close();
  });

  it('given a quiet feed, when one item arrives, then a batch of one is handed out without waiting for more', async () => {
    const source = manualFeed<string>();
    const batcher = createBatcher(source.feed, limits);
    const next = batcher.next();
    source.push('a');
    expect(await next).toEqual(['a']);
    await batcher.close();
  });

  it('given a feed that fails after some items, when batches are taken, then the items come first and then the error', async () => {
    const source = manualFeed<number>();
    const batcher = createBatcher(source.feed, limits);
    source.push(1, 2);
    source.fail(new Error('store unavailable'));
    await tick();
    expect(await batcher.next()).toEqual([1, 2]);
    await expect(batcher.next()).rejects.toThrow('store unavailable');
  });

  it('given a consumer waiting, when the batcher closes, then next() returns null', async () => {
    const source = manualFeed<number>();
    const batcher = createBatcher(source.feed, limits);
    const next = batcher.next();
    await batcher.close();
    expect(await next).toBeNull();
  });

  it('given a slow consumer, when the feed outruns it, then no more than maxBufferedItems are read ahead and nothing is lost', async () => {
    const source = manualFeed<number>();
    const batcher = createBatcher(source.feed, limits);
    source.push(...Array.from({ length: 20 }, (_, i) => i));
    await tick();
    expect(source.unread()).toBe(20 - limits.maxBufferedItems);
    const taken: number[] = [];
    while (taken.length < 20) {
      const batch = await batcher.next();
      expect(batch?.length).toBeLessThanOrEqual(limits.maxBatchSize);
      taken.push(...(batch ?? []));
    }
    expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await batcher.close();
  });

  it('given invalid limits, when created, then it is refused', () => {
    expect(() => createBatcher(manualFeed<number>().feed, { ...limits, maxBatchSize: 0 })).toThrow(/Invalid batcher limits/);
  });
});
