export * from './contracts.js';
export * from './events.js';
export * from './key-format.js';
export * from './state.js';
export * from './decider.js';
export * from './handlers.js';
