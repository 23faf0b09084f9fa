/** The millix-network port (core/src/wallet/network.ts), re-exported for the adapters in this folder. */
export * from '@quern/core/wallet';
