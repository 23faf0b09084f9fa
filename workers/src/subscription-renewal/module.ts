/**
 * The renewals' registration (ADR 037, 072): they always run, needing only the log and the clock
 * (the workers' clock, so tests move time).
 */
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { renewSubscription } from './job.js';
import { SUBSCRIPTION_RENEWAL_QUEUE } from './payload.js';
import { subscriptionRenewalRules } from './rules.js';

export const subscriptionRenewalModule: JobModule = {
  queue: SUBSCRIPTION_RENEWAL_QUEUE,
  rules: subscriptionRenewalRules,
  processor: ({ store, clock, serialize, stateCache, transferTerms }) => ({
    process: (job, token) => renewSubscription(resumableBullJob(job, token), { store, clock, serialize, stateCache, transferTerms }),
    maxStartedAttempts: WAITING_JOB_RUNS_MAX,
  }),
};
