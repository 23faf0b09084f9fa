/** The merchant's payments (`@quern/core/payments`): list, export and balance schemas, exact USD values. See ADR 034. */
export * from './contracts.js';
export * from './amounts.js';
