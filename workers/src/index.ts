/**
 * @quern/workers: the dispatcher (log -> jobs), the e-mail, settlement and deposit-confirmation
 * workers, the deposit watcher, the mailer and reset tokens.
 */
export { startDispatcher, type Dispatcher, type DispatcherStatus, type StartDispatcherOptions } from './dispatcher.js';
export { startWorkers, type StartWorkersOptions, type WorkersHandle, type WorkersStatus } from './workers.js';
export {
  depositConfirmationRule,
  dispatchRules,
  passwordResetEmailRule,
  settlementRule,
  welcomeEmailRule,
  type DispatchRule,
} from './dispatch/rules.js';
export {
  DEPOSIT_CURSOR_KEY,
  startDepositWatcher,
  type DepositWatcher,
  type DepositWatcherStatus,
  type StartDepositWatcherOptions,
} from './deposits/watcher.js';
export { DEPOSIT_CONFIRMATION_QUEUE, depositConfirmationJobId } from './deposits/payload.js';
export { SETTLEMENT_QUEUE, settlementJobId } from './settlement/payload.js';
export { DEFAULT_QUEUE_PREFIX, PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from './jobs.js';
