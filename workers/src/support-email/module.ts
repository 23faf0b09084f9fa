/** The support e-mail's registration: its queue, its rule and its processor (ADR 072). */
import type { JobModule } from '../job/job-module.js';
import { sendSupportEmail } from './job.js';
import { SUPPORT_EMAIL_QUEUE } from './payload.js';
import { supportEmailRule } from './rules.js';

export const supportEmailModule: JobModule = {
  queue: SUPPORT_EMAIL_QUEUE,
  rules: [supportEmailRule],
  processor: ({ email, supportEmail }) => ({ process: (job) => sendSupportEmail(job.data, { ...email, supportEmail }) }),
};
