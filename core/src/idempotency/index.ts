export * from './claim.js';
