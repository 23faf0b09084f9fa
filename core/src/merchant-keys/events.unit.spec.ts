// Proves recorded API key events read back as typed events only when their data is well-formed, so the key handlers never fold a guessed shape.
import { describe, expect, it } from 'vitest';
import { toApiKeyClaimEvent, toMerchantKeyEvent } from './events.js';

const hash = 'a'.repeat(64);
const at = '2026-01-01T00:00:00.000Z';

describe('toMerchantKeyEvent', () => {
  const generated = { userId: 'u1', keyId: 'k1', prefix: 'qk_test_', last4: 'a1B2', hash, generatedAt: at };

  it('given a well-formed ApiKeyGenerated, when read, then it is the typed event with its data', () => {
    expect(toMerchantKeyEvent({ type: 'ApiKeyGenerated', data: generated })).toEqual({ type: 'ApiKeyGenerated', data: generated });
  });

  it('given a key without its hash, or a claim event, when read, then it is not a merchant key event', () => {
    const { hash: _, ...withoutHash } = generated;
    expect(toMerchantKeyEvent({ type: 'ApiKeyGenerated', data: withoutHash })).toBeUndefined();
    expect(toMerchantKeyEvent({ type: 'ApiKeyClaimed', data: { hash, userId: 'u1', keyId: 'k1', claimedAt: at } })).toBeUndefined();
  });
});

describe('toApiKeyClaimEvent', () => {
  const revoked = { hash, userId: 'u1', keyId: 'k1', reason: 'replaced', revokedAt: at };

  it('given a well-formed ApiKeyRevoked, when read, then it is the typed event with its data', () => {
    expect(toApiKeyClaimEvent({ type: 'ApiKeyRevoked', data: revoked })).toEqual({ type: 'ApiKeyRevoked', data: revoked });
  });

  it('given a revocation for another reason, or a type that is no claim event, when read, then it is not one', () => {
    expect(toApiKeyClaimEvent({ type: 'ApiKeyRevoked', data: { ...revoked, reason: 'expired' } })).toBeUndefined();
    expect(toApiKeyClaimEvent({ type: 'toString', data: {} })).toBeUndefined();
  });
});
