/**
 * The deposit watcher: follows the network's incoming feed (`incomingSince`) from a cursor kept
 * in Redis and records every output that pays a Quern wallet as DepositReceived (see
 * receive.ts). The dispatcher then turns each DepositReceived into a deposit-confirmation job.
 *
 * The cursor is only a bookmark. If Redis loses it the watcher reads the feed from the start
 * again, which costs time but no correctness: ReceiveDeposit is idempotent by deposit id. The
 * cursor moves only after a whole page is recorded, so a crash mid-page re-reads that page.
 * Running two watchers is wasteful, not wrong, for the same reason.
 */
import { systemClock, type Clock, type EventStore } from '@quern/core';
import type { Redis } from 'ioredis';
import { describeError, type Logger } from '@quern/core';
import { processLogger } from '@quern/adapters/runtime';
import { defaultRetryPolicy, FailureStreak, type RetryPolicy } from '@quern/core';
import { backOffAfterFailure, settlesWithin, sleep } from '@quern/adapters/runtime';
import { INCOMING_PAGE_SIZE_MAX, type MillixNetworkPort } from '@quern/core/wallet';
import { recordIncomingTransaction, type TransferTermsBook } from '@quern/core/wallet';

export const DEPOSIT_CURSOR_KEY = 'quern:deposits:cursor';
/** Cursors are opaque, but a bookmark longer than this is corruption, not a position. */
const CURSOR_LENGTH_MAX = 1_000;
const CLOSE_TIMEOUT_MS = 5_000;

export interface StartDepositWatcherOptions {
  store: EventStore;
  /** The reference kinds' terms the wallet folds and decides under (ADR 077). */
  transferTerms: TransferTermsBook;
  /** For the cursor (shared; never closed by the watcher). */
  redis: Redis;
  network: Pick<MillixNetworkPort, 'incomingSince'>;
  /** Pause between polls once the feed is drained (default 5 s). A full page is followed at once. */
  intervalMs?: number;
  /** Outputs per read, 1..INCOMING_PAGE_SIZE_MAX (default 100). */
  pageSize?: number;
  cursorKey?: string;
  clock?: Clock;
  retryPolicy?: RetryPolicy;
  logger?: Logger;
}

/** A type, not an interface, so it fits the api's heartbeat record with its index signature. */
export type DepositWatcherStatus = {
  running: boolean;
  /** The feed position recorded so far; undefined before the first page (or after a Redis loss). */
  cursor: string | undefined;
  lastError: string | undefined;
  polls: number;
  recordedDeposits: number;
  /** Outputs to Quern wallets that the wallet refused for good (logged one by one). */
  refusedDeposits: number;
};

export interface DepositWatcher {
  status(): DepositWatcherStatus;
  close(): Promise<void>;
}

export function startDepositWatcher(options: StartDepositWatcherOptions): DepositWatcher {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > INCOMING_PAGE_SIZE_MAX)
    throw new RangeError(`Deposit watcher pageSize must be an integer from 1 to ${INCOMING_PAGE_SIZE_MAX}`);
  const intervalMs = options.intervalMs ?? 5_000;
  if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > 3_600_000)
    throw new RangeError('Deposit watcher intervalMs must be an integer from 1 ms to an hour');
  return new IncomingFeedWatcher({
    store: options.store,
    transferTerms: options.transferTerms,
    redis: options.redis,
    network: options.network,
    intervalMs,
    pageSize,
    cursorKey: options.cursorKey ?? DEPOSIT_CURSOR_KEY,
    clock: options.clock ?? systemClock,
    retryPolicy: options.retryPolicy ?? defaultRetryPolicy,
    logger: options.logger ?? processLogger,
  });
}

class IncomingFeedWatcher implements DepositWatcher {
  readonly #config: Required<StartDepositWatcherOptions>;
  readonly #abort = new AbortController();
  readonly #loop: Promise<void>;
  #running = true;
  #cursor: string | undefined;
  #lastError: string | undefined;
  #polls = 0;
  #recorded = 0;
  #refused = 0;
  #closing: Promise<void> | undefined;

  constructor(config: Required<StartDepositWatcherOptions>) {
    this.#config = config;
    this.#loop = this.#run();
  }

  status(): DepositWatcherStatus {
    return {
      running: this.#running,
      cursor: this.#cursor,
      lastError: this.#lastError,
      polls: this.#polls,
      recordedDeposits: this.#recorded,
      refusedDeposits: this.#refused,
    };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort();
      // A network or Redis call that hangs must not hang shutdown with it.
      if (!(await settlesWithin(this.#loop, CLOSE_TIMEOUT_MS)))
        this.#config.logger.error('[deposits] closed while a poll was still pending');
    })();
    return this.#closing;
  }

  async #run(): Promise<void> {
    const { retryPolicy, logger, intervalMs } = this.#config;
    const failures = new FailureStreak(retryPolicy);
    while (!this.#abort.signal.aborted) {
      try {
        const full = await this.#pollOnce();
        failures.reset();
        // A full page means more is waiting; yield to the event loop, then read on.
        if (full) await new Promise((resolve) => setImmediate(resolve));
        else await sleep(intervalMs, this.#abort.signal);
      } catch (error) {
        if (this.#abort.signal.aborted) break;
        this.#lastError = describeError(error);
        logger.error(`[deposits] ${this.#lastError} (at cursor ${this.#cursor ?? 'the start'}; attempt ${failures.count + 1})`);
        if (!(await backOffAfterFailure(failures, 'deposits', logger, this.#abort.signal))) break;
      }
    }
    this.#running = false;
  }

  /** Reads and records one page; true when the page was full (the feed has more). */
  async #pollOnce(): Promise<boolean> {
    const { redis, cursorKey, network, pageSize } = this.#config;
    // Read every time, not cached: after a Redis loss the watcher must notice and start over.
    const stored = await redis.get(cursorKey);
    const cursor = stored !== null && stored.length <= CURSOR_LENGTH_MAX ? stored : undefined;
    this.#cursor = cursor;
    let page: Awaited<ReturnType<typeof network.incomingSince>>;
    try {
      page = await network.incomingSince(cursor, pageSize);
    } catch (error) {
      // The page size is checked at start, so a RangeError means the network does not know this
      // cursor (another network's file, a corrupted key): start over, which is safe (see above).
      if (!(error instanceof RangeError) || cursor === undefined) throw error;
      this.#config.logger.error(
        `[deposits] the network refused cursor ${JSON.stringify(cursor.slice(0, 64))}; reading the feed from the start`,
      );
      await redis.del(cursorKey);
      return true;
    }
    this.#polls += 1;
    for (const incoming of page.transactions) {
      if (this.#abort.signal.aborted) return false;
      const result = await recordIncomingTransaction(this.#config, incoming);
      if (result.outcome === 'recorded') this.#recorded += 1;
      if (result.outcome === 'refused') {
        this.#refused += 1;
        this.#config.logger.error(
          `[deposits] wallet ${result.walletId} refused deposit ${result.depositId} (${result.reason}); it is not recorded`,
        );
      }
    }
    if (page.cursor !== cursor && page.cursor.length <= CURSOR_LENGTH_MAX) {
      await redis.set(cursorKey, page.cursor);
      this.#cursor = page.cursor;
    }
    return page.transactions.length >= pageSize;
  }
}
