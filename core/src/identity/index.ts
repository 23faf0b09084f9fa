export * from './contracts.js';
export * from './password-policy.js';
export * from './events.js';
export * from './state.js';
export * from './decider.js';
export * from './ports.js';
export * from './handlers.js';
export * from './reset-token.js';
