/** Invoices (`@quern/core/invoices`, issue 27): anyone with millix pays a merchant at the invoice's own address. */
export * from './commands.js';
export * from './decider.js';
export * from './events.js';
export * from './state.js';
export * from './handlers.js';
export * from './pay-from-balance.js';
export * from './contracts.js';
export * from './create.js';
export * from './refunds.js';
export * from './refund-decider.js';
export * from './refund-contracts.js';
