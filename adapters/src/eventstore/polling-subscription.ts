/**
 * A live feed of the global log for stores that can only be read (SQLite): catch up in bounded
 * pages, then wait for new events. Two things end a wait: an in-process notification (an append
 * through this process committed, so the feed reacts at once) and a poll timer (another process
 * may have appended to the same file, and nothing in this process would know).
 */
import type { LogSubscription, RecordedEvent } from '@quern/core';

/** Counts commits made through this process and wakes the subscriptions waiting for them. */
export class AppendNotifier {
  #version = 0;
  readonly #waiters = new Set<() => void>();

  get version(): number {
    return this.#version;
  }

  notify(): void {
    this.#version += 1;
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /** Registers a one-shot wake-up; returns a function that unregisters it. */
  onNext(wake: () => void): () => void {
    this.#waiters.add(wake);
    return () => this.#waiters.delete(wake);
  }
}

export interface PollingOptions {
  after: bigint | undefined;
  /** Reads up to maxCount events with position > after, in position order. */
  readPage(after: bigint, maxCount: number): RecordedEvent[];
  notifier: AppendNotifier;
  pageSize: number;
  pollIntervalMs: number;
  /** Called once when the subscription ends (closed by the caller or by the store). */
  onEnd(subscription: LogSubscription): void;
}

export class PollingSubscription implements LogSubscription {
  readonly #options: PollingOptions;
  #closed = false;
  #iterated = false;
  #wakeFromClose: (() => void) | undefined;

  constructor(options: PollingOptions) {
    this.#options = options;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wakeFromClose?.();
    this.#options.onEnd(this);
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    // A second reader would share the checkpoint in confusing ways; open another subscription.
    if (this.#iterated) throw new Error('A log subscription can be iterated only once');
    this.#iterated = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<RecordedEvent> {
    const { readPage, notifier, pageSize } = this.#options;
    // Positions start at 1, so 0 means "from the beginning".
    let checkpoint = this.#options.after ?? 0n;
    try {
      while (!this.#closed) {
        // Read the version before the page: a commit that lands after the read but before the
        // wait then shows up as a changed version and the wait returns at once.
        const seenVersion = notifier.version;
        const page = readPage(checkpoint, pageSize);
        for (const event of page) {
          yield event;
          checkpoint = event.position;
          if (this.#closed) return;
        }
        if (page.length < pageSize) await this.#waitForNews(seenVersion);
      }
    } finally {
      await this.close();
    }
  }

  #waitForNews(seenVersion: number): Promise<void> {
    const { notifier, pollIntervalMs } = this.#options;
    if (this.#closed || notifier.version !== seenVersion) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unregister();
        this.#wakeFromClose = undefined;
        resolve();
      };
      const timer = setTimeout(done, pollIntervalMs);
      const unregister = notifier.onNext(done);
      this.#wakeFromClose = done;
    });
  }
}
