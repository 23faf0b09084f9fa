/** The purchase credit's registration (ADR 026, 072): it runs only where PayPal is given. */
import type { JobModule } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { creditPurchaseAfterGrace } from './job.js';
import { PURCHASE_CREDIT_QUEUE } from './payload.js';
import { purchaseCreditRule } from './rules.js';

export const purchaseCreditModule: JobModule = {
  queue: PURCHASE_CREDIT_QUEUE,
  rules: [purchaseCreditRule],
  processor: ({ purchases }) =>
    purchases && {
      process: (job, token) =>
        creditPurchaseAfterGrace(resumableBullJob(job, token), { ...purchases.deps, creditGraceMs: purchases.creditGraceMs }),
    },
};
