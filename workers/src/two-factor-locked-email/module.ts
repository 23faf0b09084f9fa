/** The two-factor-locked e-mail's registration: its queue, its rule and its processor (ADR 072). */
import { TWO_FACTOR_LOCKED_EMAIL_QUEUE } from '../jobs.js';
import { emailJobModule } from '../job/job-module.js';
import { sendTwoFactorLockedEmail } from './job.js';
import { twoFactorLockedEmailRule } from './rules.js';

export const twoFactorLockedEmailModule = emailJobModule(
  TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  [twoFactorLockedEmailRule],
  sendTwoFactorLockedEmail,
);
