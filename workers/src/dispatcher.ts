/**
 * The dispatcher: the log is the outbox. It follows the log from its own checkpoint and turns
 * request events into BullMQ jobs with deterministic ids (see dispatch/rules.ts). When the
 * checkpoint is missing (a fresh Redis, FLUSHALL, a Redis restarted without its data) it first
 * scans the whole log in bounded pages and enqueues exactly the open work: requests without their
 * completion event. Enqueueing is at least once; the jobs make it harmless by checking the log.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import type { Redis } from 'ioredis';
import { advanceCheckpoint, checkpointValue, resumeAfter } from './dispatch/checkpoint.js';
import { Enqueuer } from './dispatch/enqueuer.js';
import { rederiveOpenWork } from './dispatch/rederive.js';
import { dispatchRules } from './dispatch/rules.js';
import { jobsRequestedBy, type DispatchRule, type PendingJob } from './job/dispatch-rule.js';
import { DEFAULT_QUEUE_PREFIX } from './jobs.js';
import { describeError, type Logger } from '@quern/core';
import { processLogger } from '@quern/adapters/runtime';
import { defaultRetryPolicy, FailureStreak, type RetryPolicy } from '@quern/core';
import { backOffAfterFailure, settlesWithin, sleep } from '@quern/adapters/runtime';

export interface StartDispatcherOptions {
  store: EventStore;
  /** For the checkpoint and for adding jobs (shared; never closed by the dispatcher). */
  redis: Redis;
  rules?: readonly DispatchRule[];
  /** BullMQ key prefix; tests use their own. */
  prefix?: string;
  checkpointKey?: string;
  /** Events per page while re-deriving open work. */
  scanPageSize?: number;
  /** Open requests held in memory while re-deriving (see OpenWork). */
  maxOpenJobs?: number;
  /** Events without a request between checkpoint writes (a lagging checkpoint only costs a re-scan). */
  checkpointEveryEvents?: number;
  /** How often the dispatcher checks that its checkpoint still exists (a Redis loss while the log is quiet). */
  checkpointCheckIntervalMs?: number;
  /**
   * After losing its checkpoint while running, how long the dispatcher waits before re-deriving:
   * jobs that were running when Redis lost them finish and record their completions first, so
   * they are not enqueued and sent a second time. BullMQ's default lock duration (30 s) is the
   * natural bound: a job running longer would have been treated as stalled and re-run anyway.
   */
  redisLossGraceMs?: number;
  retryPolicy?: RetryPolicy;
  logger?: Logger;
}

/** A type, not an interface, so it fits the api's heartbeat record with its index signature. */
export type DispatcherStatus = {
  running: boolean;
  /** Last position whose jobs are enqueued, in decimal; undefined before the first. */
  position: string | undefined;
  lastError: string | undefined;
  enqueuedJobs: number;
  /** How many times open work was re-derived from the log (each start on an empty Redis counts). */
  rederivations: number;
};

export interface Dispatcher {
  status(): DispatcherStatus;
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 5_000;

export function startDispatcher(options: StartDispatcherOptions): Dispatcher {
  const prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
  return new LogDispatcher({
    store: options.store,
    redis: options.redis,
    rules: options.rules ?? dispatchRules,
    prefix,
    // Inside the queues' namespace: whatever deletes the queues deletes the checkpoint with them,
    // and the missing checkpoint then triggers the re-derivation of the lost jobs.
    checkpointKey: options.checkpointKey ?? `${prefix}:quern-dispatcher:checkpoint`,
    scanPageSize: options.scanPageSize ?? 1_000,
    maxOpenJobs: options.maxOpenJobs ?? 10_000,
    checkpointEveryEvents: options.checkpointEveryEvents ?? 500,
    checkpointCheckIntervalMs: options.checkpointCheckIntervalMs ?? 5_000,
    redisLossGraceMs: options.redisLossGraceMs ?? 30_000,
    retryPolicy: options.retryPolicy ?? defaultRetryPolicy,
    logger: options.logger ?? processLogger,
  });
}

class LogDispatcher implements Dispatcher {
  readonly #config: Required<StartDispatcherOptions>;
  readonly #enqueuer: Enqueuer;
  readonly #abort = new AbortController();
  readonly #checkTimer: NodeJS.Timeout;
  readonly #loop: Promise<void>;
  #running = true;
  #lastError: string | undefined;
  #position: bigint | undefined;
  #expectedCheckpoint: string | undefined;
  #rederivations = 0;
  readonly #failures: FailureStreak;
  /** Set once a checkpoint was followed: a missing one afterwards means Redis lost it. */
  #followedCheckpoint = false;
  #subscription: { close(): Promise<void> } | undefined;
  #busy = false;
  #restartRequested = false;
  #checking = false;
  #closing: Promise<void> | undefined;

  constructor(config: Required<StartDispatcherOptions>) {
    this.#config = config;
    this.#failures = new FailureStreak(config.retryPolicy);
    this.#enqueuer = new Enqueuer(config.redis, config.prefix, (message) => (this.#lastError = message));
    this.#checkTimer = setInterval(() => void this.#checkCheckpoint(), config.checkpointCheckIntervalMs);
    this.#checkTimer.unref();
    this.#loop = this.#run();
  }

  status(): DispatcherStatus {
    return {
      running: this.#running,
      position: this.#position?.toString(),
      lastError: this.#lastError,
      enqueuedJobs: this.#enqueuer.enqueued,
      rederivations: this.#rederivations,
    };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort();
      clearInterval(this.#checkTimer);
      await this.#subscription?.close();
      // An enqueue stuck on an unreachable Redis must not hang shutdown forever.
      if (!(await settlesWithin(this.#loop, CLOSE_TIMEOUT_MS)))
        this.#config.logger.error('[dispatcher] closed while a Redis call was still pending');
      await this.#enqueuer.close();
    })();
    return this.#closing;
  }

  async #run(): Promise<void> {
    const { redis, checkpointKey, logger } = this.#config;
    while (!this.#abort.signal.aborted) {
      this.#restartRequested = false;
      try {
        let stored = await redis.get(checkpointKey);
        if (stored === null && this.#followedCheckpoint) {
          logger.info(`[dispatcher] Redis lost the checkpoint; re-deriving open work from the log in ${this.#config.redisLossGraceMs} ms`);
          await sleep(this.#config.redisLossGraceMs, this.#abort.signal);
          if (this.#abort.signal.aborted) break;
          stored = await redis.get(checkpointKey);
        }
        await this.#follow(stored ?? (await this.#rederive()));
      } catch (error) {
        if (this.#abort.signal.aborted) break;
        this.#lastError = describeError(error);
        logger.error(
          `[dispatcher] ${this.#lastError} (dispatched up to ${this.#position ?? 'the start'}; attempt ${this.#failures.count + 1})`,
        );
        if (!(await backOffAfterFailure(this.#failures, 'dispatcher', logger, this.#abort.signal))) break;
      }
    }
    this.#running = false;
  }

  /** Scans the log for open work, enqueues it, and stores the checkpoint to follow from. */
  async #rederive(): Promise<string> {
    const { store, rules, scanPageSize, maxOpenJobs, redis, checkpointKey, logger } = this.#config;
    this.#rederivations += 1;
    const report = await rederiveOpenWork({
      store,
      rules,
      scanPageSize,
      maxOpenJobs,
      enqueue: (jobs) => this.#enqueuer.enqueue(jobs),
      read: (event, observe) => this.#requestsIn(event, observe),
      signal: this.#abort.signal,
    });
    const value = checkpointValue(report.after);
    await redis.set(checkpointKey, value);
    logger.info(
      `[dispatcher] no checkpoint: scanned ${report.scannedEvents} events, enqueued ${report.enqueuedJobs} open jobs, following the log after ${value}`,
    );
    return value;
  }

  async #follow(checkpoint: string): Promise<void> {
    const { store, rules } = this.#config;
    this.#followedCheckpoint = true;
    this.#expectedCheckpoint = checkpoint;
    this.#position = resumeAfter(checkpoint);
    const feed = store.subscribeToAll({ after: this.#position });
    this.#subscription = feed;
    let sinceCheckpoint = 0;
    try {
      for await (const event of feed) {
        if (this.#abort.signal.aborted || this.#restartRequested) return;
        this.#busy = true;
        const jobs = this.#requestsIn(event, (e) => jobsRequestedBy(e, rules));
        await this.#enqueuer.enqueue(jobs);
        sinceCheckpoint += 1;
        if (jobs.length > 0 || sinceCheckpoint >= this.#config.checkpointEveryEvents) {
          if (!(await this.#advance(event.position))) return;
          sinceCheckpoint = 0;
        }
        this.#position = event.position;
        this.#failures.reset();
        this.#busy = false;
      }
      if (!this.#abort.signal.aborted && !this.#restartRequested) throw new Error('The log subscription ended unexpectedly');
    } finally {
      this.#busy = false;
      this.#subscription = undefined;
      await feed.close();
    }
  }

  /** Moves the checkpoint if it is still ours; false means Redis lost it or someone moved it. */
  async #advance(position: bigint): Promise<boolean> {
    const next = checkpointValue(position);
    const expected = this.#expectedCheckpoint ?? '';
    if (!(await advanceCheckpoint(this.#config.redis, this.#config.checkpointKey, expected, next))) {
      this.#config.logger.info('[dispatcher] the checkpoint was lost or moved (Redis data lost?); re-reading it');
      return false;
    }
    this.#expectedCheckpoint = next;
    return true;
  }

  /** A request event that cannot become a job never will; it is reported and passed over. */
  #requestsIn(event: RecordedEvent, read: (event: RecordedEvent) => PendingJob[]): PendingJob[] {
    try {
      return read(event);
    } catch (error) {
      this.#lastError = `Malformed ${event.type} at position ${event.position}: ${describeError(error)}`;
      this.#config.logger.error(`[dispatcher] ${this.#lastError}; no job can be made from it`);
      return [];
    }
  }

  /** Notices a Redis loss while the log is quiet (the next checkpoint write would notice it too). */
  async #checkCheckpoint(): Promise<void> {
    if (this.#checking || this.#busy || !this.#subscription) return;
    this.#checking = true;
    try {
      const stored = await this.#config.redis.get(this.#config.checkpointKey);
      if (stored !== this.#expectedCheckpoint && !this.#busy && this.#subscription) {
        this.#config.logger.info(
          `[dispatcher] the checkpoint changed from ${this.#expectedCheckpoint} to ${stored ?? 'nothing'}; re-reading it`,
        );
        this.#restartRequested = true;
        await this.#subscription.close();
      }
    } catch (error) {
      this.#lastError = describeError(error);
    } finally {
      this.#checking = false;
    }
  }
}
