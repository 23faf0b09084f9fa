/** Signed webhooks (Standard Webhooks), delivered from the log (ADR 035). */
export * from './catalogue.js';
export * from './commands.js';
export * from './contracts.js';
export * from './decider.js';
export * from './deliveries.js';
export * from './endpoints.js';
export * from './events.js';
export * from './handlers.js';
export * from './ids.js';
export * from './objects.js';
export * from './payload.js';
export * from './replay.js';
export * from './schedule.js';
export * from './test-event.js';
