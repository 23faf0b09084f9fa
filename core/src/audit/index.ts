/**
 * The ledger audit (`@quern/core/audit`, ADR 067): the whole log replayed against the invariants
 * of the wallet and of every capability rule above it, with the one transfer-claim auditor the
 * rules configure. It sits above all capabilities; none of them imports it.
 */
export * from './ledger.js';
export * from '../shared/transfer-claims.js';
