/**
 * The renewal sweep (ADR 057): every interval it re-queues the renewal jobs that BullMQ gave up
 * on, as the purchase sweep (ADR 026) catches purchases whose jobs failed for good.
 *
 * A renewal job fails only when Quern itself did (the log or Redis unreachable, a crash, a bug):
 * not enough MLX is no failure of the job but a decision it records (SubscriptionChargeFailed,
 * then the retries 1, 3 and 5 days later that the dispatcher asks for, ADR 037). So a failed
 * job whose (period, attempt) is still the subscription's open renewal is retried as it is; one
 * whose pair the log has decided meanwhile (a later run, a funds failure recorded before the
 * crash, an end) is removed, since the next pair has a job of its own.
 *
 * Never a charge twice: the job charges through runRenewal, which appends under the
 * subscription stream's revision with the period's transfer id; a sweep racing a retry, another
 * process's sweep or the job itself at worst runs a job that finds its pair decided ('stale').
 * Each sweep is bounded (failed jobs read per sweep), and a job that keeps failing is re-queued
 * after a pause that doubles (LookBackoff, from one interval up to an hour).
 */
import { describeError, type Logger } from '@quern/core';
import { loadSubscription, openRenewal, type SubscriptionDeps } from '@quern/core/subscriptions';
import { settlesWithin, sleep } from '@quern/adapters/runtime';
import type { Job } from 'bullmq';
import { LookBackoff } from '../purchase-sweep/look-backoff.js';
import { subscriptionRenewalPayload } from './payload.js';

/** The renewal queue as the sweep uses it (the composition root binds it to BullMQ). */
export interface FailedRenewalJobs {
  /** Failed jobs, at most `count`. */
  failed(count: number): Promise<Pick<Job, 'id' | 'data' | 'failedReason' | 'retry' | 'remove'>[]>;
}

export interface RenewalSweepDeps {
  core: Pick<SubscriptionDeps, 'store' | 'clock'>;
  jobs: FailedRenewalJobs;
  logger: Logger;
}

export interface RenewalSweepResult {
  requeued: number;
  removed: number;
}

/**
 * One sweep. `isDue`/`requeued` let the loop pace jobs that keep failing; a single call (tests,
 * an operator) re-queues every failed open renewal it reads.
 */
export async function sweepFailedRenewals(
  deps: RenewalSweepDeps,
  options: { jobsMax?: number; backoff?: LookBackoff; signal?: AbortSignal } = {},
): Promise<RenewalSweepResult> {
  const result: RenewalSweepResult = { requeued: 0, removed: 0 };
  const nowMs = deps.core.clock.now().getTime();
  const failed = await deps.jobs.failed(options.jobsMax ?? 1_000);
  options.backoff?.keepOnly(new Set(failed.map((job) => String(job.id))));
  for (const job of failed) {
    if (options.signal?.aborted) break;
    const jobId = String(job.id);
    const payload = subscriptionRenewalPayload.safeParse(job.data);
    if (!payload.success) {
      // Not a renewal this code could ever run: nothing to re-queue, and the operator should know.
      deps.logger.error(`[renewal-sweep] failed job ${jobId} has no renewal payload; left as it is`);
      continue;
    }
    const { subscriptionId, period, attempt } = payload.data;
    // Paused jobs are not even read: one that keeps failing costs a read per pause, not per interval.
    if (options.backoff && !options.backoff.isDue(jobId, nowMs)) continue;
    // Each job on its own: one whose subscription cannot be read (or was retried or removed
    // meanwhile by another sweep or an operator) leaves the jobs after it to be handled.
    try {
      const loaded = await loadSubscription(deps.core, subscriptionId);
      const open = loaded ? openRenewal(loaded.state) : undefined;
      if (!open || open.period !== period || open.attempt !== attempt) {
        await job.remove();
        result.removed += 1;
        continue;
      }
      await job.retry('failed');
      result.requeued += 1;
      deps.logger.info(
        `[renewal-sweep] renewal ${subscriptionId} period ${period} attempt ${attempt} failed (${job.failedReason ?? 'no reason'}); re-queued`,
      );
    } catch (error) {
      deps.logger.error(`[renewal-sweep] job ${jobId} of renewal ${subscriptionId}: ${describeError(error)}`);
    } finally {
      options.backoff?.looked(jobId, nowMs);
    }
  }
  return result;
}

export interface StartRenewalSweepOptions extends RenewalSweepDeps {
  /** Pause between sweeps (RENEWAL_SWEEP_INTERVAL_MS). */
  intervalMs: number;
  /** Failed jobs read per sweep (default 1,000). */
  jobsPerSweepMax?: number;
}

/** A type, not an interface, so it fits the heartbeat record with its index signature. */
export type RenewalSweepStatus = { running: boolean; sweeps: number; requeued: number; removed: number; lastError: string | undefined };

export interface RenewalSweep {
  status(): RenewalSweepStatus;
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 5_000;

export function startRenewalSweep(options: StartRenewalSweepOptions): RenewalSweep {
  const { intervalMs } = options;
  if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > 86_400_000)
    throw new RangeError('Renewal sweep intervalMs must be an integer from 1 ms to a day');
  const abort = new AbortController();
  const backoff = new LookBackoff(intervalMs);
  const counts = { sweeps: 0, requeued: 0, removed: 0 };
  let running = true;
  let lastError: string | undefined;
  const loop = (async () => {
    while (!abort.signal.aborted) {
      await sleep(intervalMs, abort.signal);
      if (abort.signal.aborted) break;
      try {
        const swept = await sweepFailedRenewals(options, { jobsMax: options.jobsPerSweepMax, backoff, signal: abort.signal });
        counts.sweeps += 1;
        counts.requeued += swept.requeued;
        counts.removed += swept.removed;
      } catch (error) {
        // Redis or the log unreachable: the next sweep tries again.
        lastError = describeError(error);
        options.logger.error(`[renewal-sweep] ${lastError}`);
      }
    }
    running = false;
  })();
  let closing: Promise<void> | undefined;
  return {
    status: () => ({ running, ...counts, lastError }),
    close() {
      closing ??= (async () => {
        abort.abort();
        if (!(await settlesWithin(loop, CLOSE_TIMEOUT_MS))) options.logger.error('[renewal-sweep] closed while a sweep was still running');
      })();
      return closing;
    },
  };
}
