/**
 * The millix-network port (core/src/wallet/network.ts), re-exported for the adapters in this
 * folder. `@quern/core/wallet` does not re-export network.ts yet (its index.ts is owned by the
 * wallet module), so this one file reaches it by path; once the index has
 * `export * from './network.js'`, point this line at '@quern/core/wallet' and nothing else changes.
 */
export * from '../../../../core/src/wallet/network.js';
