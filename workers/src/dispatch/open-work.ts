/**
 * Open work while scanning the log after Redis lost the dispatcher's state: requests seen without
 * their completion, in log order. Memory is bounded: when too many are open, the oldest are handed
 * out for enqueueing before the scan knows whether they complete later. That is safe because the
 * jobs check the log before acting; it only costs a job run that finds its work already done.
 */
import type { RecordedEvent } from '@quern/core';
import { jobsRequestedBy, type DispatchRule, type PendingJob } from '../job/dispatch-rule.js';

export class OpenWork {
  /** Insertion order is log order, so the first keys are the oldest requests. */
  private readonly open = new Map<string, PendingJob>();

  constructor(
    private readonly rules: readonly DispatchRule[],
    private readonly maxOpenJobs: number,
  ) {
    if (!Number.isInteger(maxOpenJobs) || maxOpenJobs < 1) throw new Error('maxOpenJobs must be a positive integer');
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Records a request or closes it on its completion. Returns the oldest open jobs when the bound
   * was passed (to enqueue now), otherwise nothing. Throws when a request event is malformed.
   */
  observe(event: RecordedEvent): PendingJob[] {
    for (const rule of this.rules) {
      if (rule.completions.includes(event.type)) this.open.delete(rule.matchCompletion(event));
    }
    for (const job of jobsRequestedBy(event, this.rules)) {
      // The same request twice in the log is one job; the first keeps its place in line.
      if (!this.open.has(job.jobId)) this.open.set(job.jobId, job);
    }
    if (this.open.size <= this.maxOpenJobs) return [];
    // Hand out half at once so a long run of open requests does not overflow on every event.
    return this.take(Math.ceil(this.maxOpenJobs / 2));
  }

  /** Everything still open, oldest first; the tracker is empty afterwards. */
  drain(): PendingJob[] {
    return this.take(this.open.size);
  }

  private take(count: number): PendingJob[] {
    const taken: PendingJob[] = [];
    for (const [jobId, job] of this.open) {
      if (taken.length >= count) break;
      taken.push(job);
      this.open.delete(jobId);
    }
    return taken;
  }
}
