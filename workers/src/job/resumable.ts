/**
 * What the settlement and deposit-confirmation jobs need from their queue: their data, a way to
 * record progress in it (so a retry or a stalled re-run resumes instead of starting over), and a
 * way to end a run and be run again later (waiting for the network without holding a worker).
 * The BullMQ adapter is below; tests drive the same jobs through the real queues as well.
 */
import { DelayedError, type Job } from 'bullmq';
import { z } from 'zod';

export interface ResumableJob {
  readonly data: unknown;
  /** Replaces the job's data in the queue; later runs of this job see it. */
  updateData(data: Record<string, unknown>): Promise<void>;
  /** Ends this run (it always throws) and asks to run again at the time, without spending an attempt. */
  runAgainAt(timestampMs: number): Promise<never>;
}

/**
 * BullMQ's way to re-schedule a running job: move it to the delayed set with its lock token,
 * then throw DelayedError so the worker leaves it there. `moveToDelayed` skips the attempt
 * counter, so waiting for the network never uses up the retries kept for real failures.
 */
export function resumableBullJob(job: Job, token: string | undefined): ResumableJob {
  return {
    get data() {
      return job.data as unknown;
    },
    updateData: (data) => job.updateData(data),
    async runAgainAt(timestampMs) {
      await job.moveToDelayed(timestampMs, token);
      throw new DelayedError(`waiting until ${new Date(timestampMs).toISOString()}`);
    },
  };
}

/** Longest pause between two looks at the network: a slow confirmation is still noticed within it. */
export const POLL_DELAY_MAX_MS = 30_000;
/** The longest wait an operator may configure. */
export const WAIT_MAX_MS = 86_400_000;
/**
 * Above the looks any allowed wait needs (a day at POLL_DELAY_MAX_MS is under 2,900); a guard
 * against a clock that stands still. The workers' BullMQ guard on runs sits above this one.
 */
export const POLLS_MAX = 5_000;

/** How long a job waits for the network and how often it looks. */
export interface NetworkWait {
  /** The bounded total wait, from the start of the wait, before the job gives up ('expired'). */
  waitMs: number;
  /** First pause between looks; it doubles up to POLL_DELAY_MAX_MS. */
  pollIntervalMs: number;
}

/** What a waiting job records between runs. Lost with Redis; the job then starts its wait again. */
export const waitProgress = z.object({
  /** When the wait began (the worker's clock): the deadline is this plus NetworkWait.waitMs. */
  waitingSinceMs: z.number().int().nonnegative(),
  polls: z.number().int().min(0).max(POLLS_MAX),
});
export type WaitProgress = z.infer<typeof waitProgress>;

/** The next look: doubling pauses, never past the deadline, so the last look is at the deadline. */
export function nextPollAtMs(progress: WaitProgress, nowMs: number, wait: NetworkWait): number {
  const pauseMs = Math.min(POLL_DELAY_MAX_MS, wait.pollIntervalMs * 2 ** Math.min(progress.polls, 20));
  return Math.min(nowMs + pauseMs, deadlineMs(progress, wait));
}

export const deadlineMs = (progress: WaitProgress, wait: NetworkWait): number => progress.waitingSinceMs + wait.waitMs;

/** True when the job must stop waiting: the deadline passed, or (a guard) it looked too often. */
export const waitIsOver = (progress: WaitProgress, nowMs: number, wait: NetworkWait): boolean =>
  nowMs >= deadlineMs(progress, wait) || progress.polls >= POLLS_MAX;

/** Checks a wait configured by an operator: whole milliseconds within sane bounds. */
export function checkedWait(wait: NetworkWait, name: string): NetworkWait {
  if (!Number.isInteger(wait.waitMs) || wait.waitMs < 0 || wait.waitMs > WAIT_MAX_MS)
    throw new RangeError(`${name}: the wait must be an integer number of milliseconds from 0 to a day`);
  if (!Number.isInteger(wait.pollIntervalMs) || wait.pollIntervalMs < 1 || wait.pollIntervalMs > POLL_DELAY_MAX_MS)
    throw new RangeError(`${name}: the poll interval must be an integer from 1 to ${POLL_DELAY_MAX_MS} ms`);
  return wait;
}
