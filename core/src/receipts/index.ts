/** A shopper's receipts and the rate in force at a moment of the log (`@quern/core/receipts`): see ADR 091. */
export * from './contracts.js';
export * from './rate-walk.js';
export * from './rows.js';
