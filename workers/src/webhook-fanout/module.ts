/** The webhook fan-out's registration (ADR 035, 072): it runs in every process. */
import type { JobModule } from '../job/job-module.js';
import { fanOutWebhookJob } from './job.js';
import { WEBHOOK_FANOUT_QUEUE } from './payload.js';
import { webhookFanOutRules } from './rules.js';

export const webhookFanOutModule: JobModule = {
  queue: WEBHOOK_FANOUT_QUEUE,
  rules: webhookFanOutRules,
  // The public URL is the e-mail jobs' (PUBLIC_URL without its trailing slash): an invoice's hosted page is under it.
  processor: ({ store, clock, mode, email }) => ({
    process: (job) => fanOutWebhookJob(job.data, { store, clock, mode, publicUrl: email.publicUrl }),
  }),
};
