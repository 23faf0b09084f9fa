/** The deposit confirmation's registration (ADR 072): it runs only where the millix network is given. */
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { confirmDeposit } from './job.js';
import { DEPOSIT_CONFIRMATION_QUEUE } from './payload.js';
import { depositConfirmationRule } from './rules.js';

export const depositConfirmationModule: JobModule = {
  queue: DEPOSIT_CONFIRMATION_QUEUE,
  rules: [depositConfirmationRule],
  processor: ({ store, clock, logger, serialize, stateCache, transferTerms, network }) =>
    network && {
      process: (job, token) =>
        confirmDeposit(resumableBullJob(job, token), {
          store,
          transferTerms,
          clock,
          network: network.port,
          logger,
          wait: network.depositWait,
          serialize,
          stateCache,
        }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
};
