/** The e-mail verification mail's registration: its queue, its rule and its processor (ADR 072). */
import { EMAIL_VERIFICATION_EMAIL_QUEUE } from '../jobs.js';
import { emailJobModule } from '../job/job-module.js';
import { sendEmailVerificationEmail } from './job.js';
import { emailVerificationEmailRule } from './rules.js';

export const emailVerificationEmailModule = emailJobModule(
  EMAIL_VERIFICATION_EMAIL_QUEUE,
  [emailVerificationEmailRule],
  sendEmailVerificationEmail,
);
