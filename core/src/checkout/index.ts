/**
 * The checkout capability's public API (`@quern/core/checkout`): the cart's pricing and digests,
 * the checkout stream's events, fold and decider, the payment token, the handlers over the
 * ports, and the checkout audit. See docs/decisions/029-checkout-payments.md.
 */
export * from './cart.js';
export * from './contracts.js';
export * from './events.js';
export * from './state.js';
export * from './decider.js';
export * from './token.js';
export * from './handlers.js';
export * from './audit.js';
export * from './merchant-order.js';
export * from './transfer-reference.js';
