/**
 * Turns a live feed into bounded batches of "whatever has arrived". A pump copies items from the
 * feed into a bounded buffer; the consumer takes up to maxBatchSize at a time. While the consumer
 * commits one batch, the next one accumulates, so throughput grows with load (group commit)
 * without adding latency when the log is quiet.
 */

export interface Batcher<T> {
  /** The next batch (1..maxBatchSize items), or null once the feed ended or the batcher closed. */
  next(): Promise<T[] | null>;
  /** Stops the feed and the pump; items already buffered are dropped. */
  close(): Promise<void>;
}

export interface ClosableFeed<T> extends AsyncIterable<T> {
  close(): Promise<void>;
}

export interface BatcherLimits {
  maxBatchSize: number;
  /** Items held in memory before the pump stops reading the feed (back-pressure). */
  maxBufferedItems: number;
  /** How long close() waits for the pump to notice; a feed that never settles must not hang shutdown. */
  closeTimeoutMs: number;
}

export function createBatcher<T>(feed: ClosableFeed<T>, limits: BatcherLimits): Batcher<T> {
  if (limits.maxBatchSize < 1 || limits.maxBufferedItems < limits.maxBatchSize) throw new Error('Invalid batcher limits');
  const buffer: T[] = [];
  let ended = false;
  let closed = false;
  let failure: { error: unknown } | undefined;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;

  const notifyConsumer = () => {
    const wake = wakeConsumer;
    wakeConsumer = undefined;
    wake?.();
  };
  const notifyProducer = () => {
    const wake = wakeProducer;
    wakeProducer = undefined;
    wake?.();
  };

  const pump = (async () => {
    try {
      for await (const item of feed) {
        if (closed) break;
        buffer.push(item);
        notifyConsumer();
        while (buffer.length >= limits.maxBufferedItems && !closed) {
          await new Promise<void>((resolve) => (wakeProducer = resolve));
        }
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      notifyConsumer();
    }
  })();

  return {
    async next() {
      for (;;) {
        if (closed) return null;
        if (buffer.length > 0) {
          const batch = buffer.splice(0, limits.maxBatchSize);
          notifyProducer();
          return batch;
        }
        // A feed error surfaces only after the items that arrived before it were handed out.
        if (failure) throw failure.error;
        if (ended) return null;
        await new Promise<void>((resolve) => (wakeConsumer = resolve));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      notifyProducer();
      notifyConsumer();
      await feed.close();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pump, new Promise<void>((resolve) => (timer = setTimeout(resolve, limits.closeTimeoutMs)))]);
      clearTimeout(timer);
    },
  };
}
