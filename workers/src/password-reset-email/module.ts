/** The password-reset e-mail's registration: its queue, its rule and its processor (ADR 072). */
import { PASSWORD_RESET_EMAIL_QUEUE } from '../jobs.js';
import { emailJobModule } from '../job/job-module.js';
import { sendPasswordResetEmail } from './job.js';
import { passwordResetEmailRule } from './rules.js';

export const passwordResetEmailModule = emailJobModule(PASSWORD_RESET_EMAIL_QUEUE, [passwordResetEmailRule], sendPasswordResetEmail);
