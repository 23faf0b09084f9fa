/** Every kind of transfer reference, listed above the wallet and the capabilities that own them (ADR 074). */
export * from './known.js';
export * from './purpose.js';
