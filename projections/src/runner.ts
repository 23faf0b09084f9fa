/**
 * The projection runner: follows the log from the checkpoint stored in Redis and applies events
 * in bounded batches, each batch and the checkpoint in one guarded MULTI/EXEC (see commit.ts).
 * A failing event is logged with its position and retried with bounded backoff, never skipped;
 * when the retries run out the runner stops and says why in status(), for /healthz to report.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import type { Redis } from 'ioredis';
import { defaultRetryPolicy, FailureStreak, type RetryPolicy } from '@quern/core';
import { backOffAfterFailure, settlesWithin, sleep } from '@quern/adapters/runtime';
import { createBatcher, type Batcher } from './batcher.js';
import { formatPosition, parseCheckpoint } from './checkpoint.js';
import { commitBatch, PartialCommitError } from './commit.js';
import { describeError, type Logger } from '@quern/core';
import { processLogger } from '@quern/adapters/runtime';
import { DEFAULT_CHECKPOINT_KEY, type Projection } from './types.js';
import { PositionWaiters } from './waiters.js';

export interface StartProjectionsOptions {
  store: EventStore;
  /** Used for plain reads; the runner opens one dedicated connection of its own for WATCH. */
  redis: Redis;
  projections: readonly Projection[];
  checkpointKey?: string;
  /** Most events per MULTI/EXEC. */
  maxBatchSize?: number;
  retryPolicy?: RetryPolicy;
  /** How often the runner checks that nobody else moved or deleted its checkpoint (FLUSHALL, a rebuild). */
  checkpointCheckIntervalMs?: number;
  logger?: Logger;
}

/** A type, not an interface, so it fits the api's heartbeat record with its index signature. */
export type ProjectionRunnerStatus = {
  running: boolean;
  /** Last applied position in decimal (a string because /healthz serializes it to JSON). */
  position: string | undefined;
  lastError: string | undefined;
};

export interface ProjectionRunner {
  /** Last applied global position; undefined before the first event. */
  position(): bigint | undefined;
  /** Resolves true once `position` is applied, false when timeoutMs passes first or the runner closes. */
  waitForPosition(position: bigint, timeoutMs: number): Promise<boolean>;
  status(): ProjectionRunnerStatus;
  close(): Promise<void>;
}

const FEED_LIMITS = { maxBufferedItems: 2_000, closeTimeoutMs: 5_000 };
const CLOSE_TIMEOUT_MS = 5_000;

export function startProjections(options: StartProjectionsOptions): ProjectionRunner {
  const checkpointKey = options.checkpointKey ?? DEFAULT_CHECKPOINT_KEY;
  const maxBatchSize = options.maxBatchSize ?? 500;
  const retryPolicy = options.retryPolicy ?? defaultRetryPolicy;
  const logger = options.logger ?? processLogger;
  const checkIntervalMs = options.checkpointCheckIntervalMs ?? 5_000;
  const connection = options.redis.duplicate();
  const abort = new AbortController();
  const waiters = new PositionWaiters();
  let applied: bigint | undefined;
  /** The checkpoint value this runner last read or wrote. */
  let expectedCheckpoint: string | null = null;
  let running = true;
  let lastError: string | undefined;
  const failures = new FailureStreak(retryPolicy);
  let feed: Batcher<RecordedEvent> | undefined;
  let committing = false;
  let restartRequested = false;

  const adopt = (position: bigint | undefined) => {
    applied = position;
    expectedCheckpoint = position === undefined ? null : formatPosition(position);
    if (position !== undefined) waiters.resolveUpTo(position);
  };

  /** Follows the log until the checkpoint moves under us, a restart is asked for, or close(). */
  async function follow(): Promise<void> {
    // close() may have come while the checkpoint was being read, before there was a feed to close;
    // subscribing now would keep the loop alive until the close timeout.
    if (abort.signal.aborted) return;
    const batches = createBatcher(options.store.subscribeToAll({ after: applied }), { maxBatchSize, ...FEED_LIMITS });
    feed = batches;
    try {
      for (;;) {
        const events = await batches.next();
        if (events === null) {
          if (abort.signal.aborted || restartRequested) return;
          throw new Error('The log subscription ended unexpectedly');
        }
        committing = true;
        const outcome = await commitBatch(connection, {
          checkpointKey,
          expectedCheckpoint,
          events,
          projections: options.projections,
        }).finally(() => (committing = false));
        if (outcome.kind === 'moved') {
          logger.info(`[projections] the checkpoint changed under the runner at ${expectedCheckpoint ?? 'the start'}; re-reading it`);
          return;
        }
        adopt(outcome.position);
        failures.reset();
        lastError = undefined;
        if (outcome.failure) throw outcome.failure;
      }
    } finally {
      feed = undefined;
      await batches.close();
    }
  }

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      restartRequested = false;
      try {
        const stored = parseCheckpoint(await options.redis.get(checkpointKey));
        if (stored.kind === 'fenced') {
          lastError = `Read models are being rebuilt (${stored.owner}); waiting`;
          await sleep(checkIntervalMs, abort.signal);
          continue;
        }
        adopt(stored.kind === 'position' ? stored.position : undefined);
        await follow();
      } catch (error) {
        const at = applied === undefined ? 'the start of the log' : `position ${applied}`;
        lastError = describeError(error);
        logger.error(`[projections] ${lastError} (applied up to ${at})`);
        if (error instanceof PartialCommitError) break;
        if (!(await backOffAfterFailure(failures, 'projections', logger, abort.signal))) break;
      }
    }
    running = false;
  }

  /** Notices FLUSHALL or a rebuild while the log is quiet (a commit would notice it too). */
  let checking = false;
  const checkTimer = setInterval(async () => {
    if (checking || committing || !feed) return;
    checking = true;
    try {
      const stored = await options.redis.get(checkpointKey);
      if (stored !== expectedCheckpoint && !committing && feed) {
        logger.info(`[projections] the checkpoint changed from ${expectedCheckpoint ?? 'none'} to ${stored ?? 'none'}; re-reading it`);
        restartRequested = true;
        await feed.close();
      }
    } catch (error) {
      lastError = describeError(error);
    } finally {
      checking = false;
    }
  }, checkIntervalMs);
  checkTimer.unref();

  const loop = run();
  let closing: Promise<void> | undefined;

  return {
    position: () => applied,
    waitForPosition: (position, timeoutMs) =>
      running ? waiters.wait(position, applied, timeoutMs) : Promise.resolve(applied !== undefined && applied >= position),
    status: () => ({ running, position: applied === undefined ? undefined : formatPosition(applied), lastError }),
    close() {
      closing ??= (async () => {
        abort.abort();
        clearInterval(checkTimer);
        await feed?.close();
        // A commit stuck on an unreachable Redis must not hang shutdown: give the loop a bounded
        // time, then drop the connection, which fails whatever it was waiting for.
        const ended = await settlesWithin(loop, CLOSE_TIMEOUT_MS);
        waiters.rejectAll();
        if (ended) await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      })();
      return closing;
    },
  };
}
