/**
 * The webhook delivery's registration (ADR 035, 072): it runs in every process. Its rules sit
 * beside the fan-out's, which opens the delivery streams they read.
 */
import { DelayedError } from 'bullmq';
import { type JobModule, WAITING_JOB_RUNS_MAX } from '../job/job-module.js';
import { resumableBullJob } from '../job/resumable.js';
import { webhookDeliveryRules } from '../webhook-fanout/rules.js';
import { deliverWebhook } from './job.js';
import { WEBHOOK_DELIVERY_QUEUE } from './payload.js';

export const webhookDeliveryModule: JobModule = {
  queue: WEBHOOK_DELIVERY_QUEUE,
  rules: webhookDeliveryRules,
  processor: ({ webhookDelivery: deps }) => ({
    process: (job, token) =>
      deliverWebhook(resumableBullJob(job, token), deps).catch((error: unknown) => {
        // A DelayedError is the job parking itself until its next attempt, not a failure.
        if (!(error instanceof DelayedError)) deps.onOutcome?.('failed');
        throw error;
      }),
    maxStartedAttempts: WAITING_JOB_RUNS_MAX,
  }),
};
