/** Subscription plans (`@quern/core/plans`, issue 13, ADR 037): events, wire shapes and handlers. */
export * from './events.js';
export * from './state.js';
export * from './contracts.js';
export * from './commands.js';
export * from './decider.js';
export * from './handlers.js';
export * from './list-page.js';
