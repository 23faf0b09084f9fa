/**
 * Refunds of checkout orders (`@quern/core/refunds`, ADR 033): the event on the order's checkout
 * stream, the fold, the decider, the handlers and the wire shapes, and the refund audit.
 */
export * from './events.js';
export * from './state.js';
export * from './decider.js';
export * from './contracts.js';
export * from './handlers.js';
export * from './audit.js';
export * from './order-view.js';
export * from './transfer-reference.js';
