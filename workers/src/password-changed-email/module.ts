/** The password-changed e-mail's registration: its queue, its rule and its processor (ADR 072). */
import { PASSWORD_CHANGED_EMAIL_QUEUE } from '../jobs.js';
import { emailJobModule } from '../job/job-module.js';
import { sendPasswordChangedEmail } from './job.js';
import { passwordChangedEmailRule } from './rules.js';

export const passwordChangedEmailModule = emailJobModule(
  PASSWORD_CHANGED_EMAIL_QUEUE,
  [passwordChangedEmailRule],
  sendPasswordChangedEmail,
);
