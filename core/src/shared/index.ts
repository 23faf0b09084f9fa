export * from './ports/event-store.js';
export * from './errors.js';
export * from './clock.js';
export * from './assert.js';
export * from './keyed-serializer.js';
export * from './backoff.js';
export * from './logger.js';
export * from './quern-mode.js';
