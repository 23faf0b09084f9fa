/** The settlement's registration (ADR 072): it runs only where the millix network is given. */
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { settleTransfer } from './job.js';
import { SETTLEMENT_QUEUE } from './payload.js';
import { settlementRule } from './rules.js';

export const settlementModule: JobModule = {
  queue: SETTLEMENT_QUEUE,
  rules: [settlementRule],
  processor: ({ store, clock, logger, serialize, stateCache, transferTerms, network }) =>
    network && {
      process: (job, token) =>
        settleTransfer(resumableBullJob(job, token), {
          store,
          transferTerms,
          clock,
          network: network.port,
          logger,
          settlementDelayMs: network.settlementDelayMs,
          wait: network.settlementWait,
          serialize,
          stateCache,
        }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
};
