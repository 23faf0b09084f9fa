/**
 * Queue names and the options every dispatched job gets. BullMQ is not the record of the work
 * (the log is), so finished jobs are kept only long enough to make an immediate re-enqueue a
 * no-op and to help debugging; idempotency comes from the completion event in the log.
 */
import type { JobsOptions } from 'bullmq';

export const WELCOME_EMAIL_QUEUE = 'welcome-email';
export const PASSWORD_RESET_EMAIL_QUEUE = 'password-reset-email';
export const PASSWORD_CHANGED_EMAIL_QUEUE = 'password-changed-email';
export const TWO_FACTOR_LOCKED_EMAIL_QUEUE = 'two-factor-locked-email';
export const EMAIL_VERIFICATION_EMAIL_QUEUE = 'email-verification-email';

export const DEFAULT_QUEUE_PREFIX = 'bull';

const HOUR_S = 3_600;

export const dispatchedJobOptions: JobsOptions = {
  // About 40 minutes of retries: outlasts an SMTP server restart, then the job is left failed.
  attempts: 8,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { age: 24 * HOUR_S, count: 10_000 },
  removeOnFail: { age: 7 * 24 * HOUR_S, count: 10_000 },
};
