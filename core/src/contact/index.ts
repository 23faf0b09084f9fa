/** Contact and support messages (`@quern/core/contact`, issue 14): events, form schemas, handler. */
export * from './events.js';
export * from './contracts.js';
export * from './state.js';
export * from './commands.js';
export * from './decider.js';
export * from './handlers.js';
