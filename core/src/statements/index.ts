/** Monthly signed statements (ADR 090): the month, the covered fields, the hash chain, the totals and the chain's check. */
export * from './canonical.js';
export * from './chain.js';
export * from './contracts.js';
export * from './month.js';
export * from './totals.js';
export * from './verify.js';
