/** The price-change announcements' registration (ADR 072): they run only with the subscriptions read model. */
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { announcePlanPriceChange } from './job.js';
import { PLAN_PRICE_NOTICE_QUEUE } from './payload.js';
import { planPriceNoticeRule } from './rules.js';

export const planPriceNoticeModule: JobModule = {
  queue: PLAN_PRICE_NOTICE_QUEUE,
  rules: [planPriceNoticeRule],
  processor: ({ store, clock, serialize, stateCache, transferTerms, planSubscriptions }) =>
    planSubscriptions && {
      process: (job, token) =>
        announcePlanPriceChange(resumableBullJob(job, token), { store, clock, serialize, stateCache, transferTerms, planSubscriptions }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
};
