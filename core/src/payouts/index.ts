/**
 * Payouts through the merchant API (`@quern/core/payouts`, ADR 033): the event opening
 * `payout-<id>`, its state, the command and its pure decision, the handlers, the wire shapes and
 * the payout audit.
 */
export * from './events.js';
export * from './state.js';
export * from './commands.js';
export * from './decider.js';
export * from './contracts.js';
export * from './handlers.js';
export * from './audit.js';
export * from './transfer-reference.js';
