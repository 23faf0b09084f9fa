/** The webhook fan-out's registration (ADR 035, 072): it runs in every process. */
import type { JobModule } from '../job/job-module.js';
import { fanOutWebhookJob } from './job.js';
import { WEBHOOK_FANOUT_QUEUE } from './payload.js';
import { webhookFanOutRules } from './rules.js';

export const webhookFanOutModule: JobModule = {
  queue: WEBHOOK_FANOUT_QUEUE,
  rules: webhookFanOutRules,
  processor: ({ store, clock, mode }) => ({ process: (job) => fanOutWebhookJob(job.data, { store, clock, mode }) }),
};
