/** The subscription e-mails' registration: their queue, their rules and their processor (ADR 072). */
import type { JobModule } from '../job/job-module.js';
import { sendSubscriptionEmail } from './job.js';
import { SUBSCRIPTION_EMAIL_QUEUE } from './payload.js';
import { subscriptionEmailRules } from './rules.js';

export const subscriptionEmailModule: JobModule = {
  queue: SUBSCRIPTION_EMAIL_QUEUE,
  rules: subscriptionEmailRules,
  processor: ({ email, serialize, stateCache }) => ({
    process: (job) => sendSubscriptionEmail(job.data, { ...email, serialize, stateCache }),
  }),
};
