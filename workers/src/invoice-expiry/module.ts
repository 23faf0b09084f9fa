/** The invoice expiry's registration (ADR 072): its queue, its rule and its processor, in every process. */
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { expireInvoiceWhenDue } from './job.js';
import { INVOICE_EXPIRY_QUEUE } from './payload.js';
import { invoiceExpiryRule } from './rules.js';

export const invoiceExpiryModule: JobModule = {
  queue: INVOICE_EXPIRY_QUEUE,
  rules: [invoiceExpiryRule],
  processor: ({ store, clock }) => ({
    process: (job, token) => expireInvoiceWhenDue(resumableBullJob(job, token), { store, clock }),
    maxStartedAttempts: WAITING_JOB_RUNS_MAX,
  }),
};
