/** Every kind of transfer reference, listed above the wallet and the capabilities that own them (ADR 074, 078). */
export * from './known.js';
