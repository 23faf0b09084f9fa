/**
 * Answers as of a moment (`@quern/core/as-of`, ADR 089): what `as_of` names, the time each event
 * states, the balance and payment folds and the wire schemas. The reads that fold the log from a
 * day snapshot live in projections (wallet-days).
 */
export * from './moment.js';
export * from './event-time.js';
export * from './balance.js';
export * from './payment.js';
export * from './contracts.js';
