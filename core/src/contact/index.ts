/** Contact and support messages (`@quern/core/contact`, issue 14): events, form schemas, handler. */
export * from './events.js';
export * from './contracts.js';
export * from './handlers.js';
