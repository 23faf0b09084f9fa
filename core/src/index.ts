export * from './shared/index.js';
