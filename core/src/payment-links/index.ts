/** Payment links (`@quern/core/payment-links`, ADR 084): a reusable `/pay/{slug}` that makes a fresh invoice per visit. */
export * from './amount.js';
export * from './commands.js';
export * from './contracts.js';
export * from './create.js';
export * from './decider.js';
export * from './events.js';
export * from './handlers.js';
export * from './state.js';
