/** Subscriptions that bill (`@quern/core/subscriptions`, issue 13, ADR 037). */
export * from './events.js';
export * from './schedule.js';
export * from './state.js';
export * from './contracts.js';
export * from './handlers.js';
export * from './audit.js';
export * from './price.js';
export * from './resume.js';
export * from './transfer-reference.js';
