/**
 * The purchase capability's public API (`@quern/core/purchases`): pricing, the purchase stream's
 * events, fold and decider, the handlers over the ports, and the purchase audit. See
 * docs/decisions/025-purchases.md.
 */
export * from './pricing.js';
export * from './events.js';
export * from './state.js';
export * from './decider.js';
export * from './handlers.js';
export * from './contracts.js';
export * from './refusals.js';
export * from './transfer-reference.js';
