/** The welcome e-mail's registration: its queue, its rule and its processor (ADR 072). */
import { WELCOME_EMAIL_QUEUE } from '../jobs.js';
import { emailJobModule } from '../job/job-module.js';
import { sendWelcomeEmail } from './job.js';
import { welcomeEmailRule } from './rules.js';

export const welcomeEmailModule = emailJobModule(WELCOME_EMAIL_QUEUE, [welcomeEmailRule], sendWelcomeEmail);
