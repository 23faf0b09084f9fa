/** @quern/workers: the dispatcher (log -> jobs), the e-mail workers, the mailer and reset tokens. */
export { startDispatcher, type Dispatcher, type DispatcherStatus, type StartDispatcherOptions } from './dispatcher.js';
export { startWorkers, type StartWorkersOptions, type WorkersHandle, type WorkersStatus } from './workers.js';
export { createMailer, type CreateMailerOptions, type EmailMessage, type Mailer } from './email/mailer.js';
export { createResetToken, verifyResetToken, type ResetLink } from './password-reset-email/token.js';
export { dispatchRules, passwordResetEmailRule, welcomeEmailRule, type DispatchRule } from './dispatch/rules.js';
export { DEFAULT_QUEUE_PREFIX, PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from './jobs.js';
export type { Logger } from './log.js';
export type { RetryPolicy } from './retry.js';
