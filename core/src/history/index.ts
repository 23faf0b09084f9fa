/**
 * The wallet's history as its readers see it (`@quern/core/history`): the transaction rows'
 * contracts, the purposes of every capability that moves MLX (from the one list, ADR 078), the
 * history's kinds and its filter. It sits above the capabilities whose purposes it lists.
 */
export * from './contracts.js';
export * from './filter.js';
export * from './kind.js';
export * from './purpose.js';
