// Proves the API key decisions: the first key is claimed, a new key revokes the previous one in
// the same decision, delete revokes the current key, and deleting with no key is refused.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { decideDelete, decideGenerate } from './decider.js';
import { evolveApiKeyClaim, evolveMerchantKeys, type MerchantKeysState } from './state.js';

const now = new Date('2026-11-24T10:00:00.000Z');
const at = now.toISOString();
const generate = (state: MerchantKeysState, keyId: string, hash: string) =>
  decideGenerate(state, { userId: 'u1', keyId, prefix: 'qk_live_', last4: `${keyId}xx`.slice(0, 4), hash, now });

describe('decideGenerate', () => {
  it('given no key, when generating, then the key is recorded and its hash claimed, nothing revoked', () => {
    const decision = generate({}, 'k1', 'h1');
    expect(decision.merchantEvent).toEqual({
      type: 'ApiKeyGenerated',
      data: { userId: 'u1', keyId: 'k1', prefix: 'qk_live_', last4: 'k1xx', hash: 'h1', generatedAt: at },
    });
    expect(decision.claim).toEqual({
      hash: 'h1',
      event: { type: 'ApiKeyClaimed', data: { hash: 'h1', userId: 'u1', keyId: 'k1', claimedAt: at } },
    });
    expect(decision.revoke).toBeUndefined();
  });

  it('given a current key, when generating, then the previous key is revoked as replaced', () => {
    const state = evolveMerchantKeys({}, generate({}, 'k1', 'h1').merchantEvent);
    const decision = generate(state, 'k2', 'h2');
    expect(decision.claim?.hash).toBe('h2');
    expect(decision.revoke).toEqual({
      hash: 'h1',
      event: { type: 'ApiKeyRevoked', data: { hash: 'h1', userId: 'u1', keyId: 'k1', reason: 'replaced', revokedAt: at } },
    });
    expect(evolveMerchantKeys(state, decision.merchantEvent).current?.keyId).toBe('k2');
  });

  it('given a current key, when the new key hashes the same, then it refuses (broken randomness)', () => {
    const state = evolveMerchantKeys({}, generate({}, 'k1', 'h1').merchantEvent);
    expect(() => generate(state, 'k2', 'h1')).toThrow(AppError);
  });
});

describe('decideDelete', () => {
  it('given a current key, when deleting, then it is deleted and its hash revoked', () => {
    const state = evolveMerchantKeys({}, generate({}, 'k1', 'h1').merchantEvent);
    const decision = decideDelete(state, { userId: 'u1', now });
    expect(decision.merchantEvent).toEqual({ type: 'ApiKeyDeleted', data: { userId: 'u1', keyId: 'k1', deletedAt: at } });
    expect(decision.revoke?.event.data).toMatchObject({ hash: 'h1', keyId: 'k1', reason: 'deleted' });
    expect(decision.claim).toBeUndefined();
    expect(evolveMerchantKeys(state, decision.merchantEvent)).toEqual({});
  });

  it('given no key, when deleting, then it is NOT_FOUND', () => {
    expect(() => decideDelete({}, { userId: 'u1', now })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', messageKey: 'errors:apiKeyNotFound' }),
    );
  });
});

describe('evolveApiKeyClaim', () => {
  it('a claim names the merchant; a revocation clears it', () => {
    const claimed = evolveApiKeyClaim({}, { type: 'ApiKeyClaimed', data: { hash: 'h', userId: 'u1', keyId: 'k1', claimedAt: at } });
    expect(claimed).toEqual({ userId: 'u1', keyId: 'k1' });
    expect(
      evolveApiKeyClaim(claimed, {
        type: 'ApiKeyRevoked',
        data: { hash: 'h', userId: 'u1', keyId: 'k1', reason: 'deleted', revokedAt: at },
      }),
    ).toEqual({});
  });
});
