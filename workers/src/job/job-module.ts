/**
 * What one job registers, in its own folder (ADR 072, after the api's modules of ADR 068): the
 * queue it consumes, the dispatch rules that ask for its jobs, and its processor. The list
 * (workers/src/job-modules.ts) is the only place a job is named; the dispatcher's rules, ALL_QUEUES
 * and the workers are built by walking it.
 */
import type { Job } from 'bullmq';
import type { DispatchRule } from './dispatch-rule.js';
import type { EmailJobDeps } from './email-job.js';
import type { WorkerContext } from './worker-context.js';

/** A BullMQ processor; `token` is the job's lock, which a resumable job needs to park itself. */
export type JobProcessor = (job: Job, token: string | undefined) => Promise<unknown>;

export interface QueueProcessor {
  process: JobProcessor;
  /**
   * A guard on runs of one job, waits included (BullMQ fails the job past it). The waits are
   * bounded by their deadlines long before; this only stops a job that somehow never ends.
   */
  maxStartedAttempts?: number;
}

export interface JobModule {
  /** The BullMQ queue its jobs are enqueued on and consumed from. */
  queue: string;
  /** Which events ask for its jobs and which record them as done (each rule names `queue`). */
  rules: readonly DispatchRule[];
  /**
   * The processor over what this process has; undefined when it lacks what the job needs (no
   * millix network, no PayPal, no subscriptions read model): its jobs then wait in the queue,
   * nothing is lost, for a process that has it.
   */
  processor(context: WorkerContext): QueueProcessor | undefined;
}

/** Above POLLS_MAX plus the retry attempts, so the waiting jobs' own deadline always acts first. */
export const WAITING_JOB_RUNS_MAX = 10_000;

/** An e-mail job: a function of its payload and the e-mail deps, run in every process. */
export const emailJobModule = (
  queue: string,
  rules: readonly DispatchRule[],
  send: (data: unknown, deps: EmailJobDeps) => Promise<unknown>,
): JobModule => ({
  queue,
  rules,
  processor: ({ email }) => ({ process: (job) => send(job.data, email) }),
});
