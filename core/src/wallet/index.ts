/**
 * The wallet capability's public API (`@quern/core/wallet`). A handler loads `wallet-<id>`,
 * folds it with foldWallet (or toWalletEvent + evolve for recorded events), calls decide with
 * its Clock's now, and appends the decision's events with the expected revision
 * `state.eventCount - 1` (or 'no_stream' when eventCount is 0). See docs/decisions/005.
 */
export * from './address.js';
export * from './derived-account.js';
export { BASE58_ALPHABET, base58CheckDecode, base58CheckEncode, base58Decode, base58Encode, isBase58 } from './base58.js';
export type { Base58CheckDecoded, Base58CheckFailure } from './base58.js';
export * from './commands.js';
export * from './contracts.js';
export * from './decider.js';
export * from './refusals.js';
export * from './events.js';
export * from './transfer-reference.js';
export * from './transfer-terms.js';
export * from './purpose.js';
export * from './money-capability.js';
export * from './money.js';
export * from './pagination.js';
export * from './shorten.js';
export * from './state.js';
export * from './snapshot.js';
export * from './balance.js';
export * from './handlers.js';
export * from './rate.js';
export * from './network.js';
export * from './deposits.js';
export * from './recipient-lookup.js';
export * from './payee-directory.js';
export * from './payment-uri.js';
