/**
 * Pure API key decisions. Generating records the new key and claims its hash; when a key is
 * already current, the same decision revokes it, so the previous key stops working in the very
 * append that creates the new one. Deleting revokes the current key. No I/O, clock or randomness.
 */
import { AppError } from '../shared/errors.js';
import type { ApiKeyDeleted, ApiKeyGenerated, ApiKeyClaimed, ApiKeyRevoked } from './events.js';
import type { MerchantKeysState } from './state.js';

/** What one key change appends: the merchant's event, and the claim streams it touches. */
export interface KeyDecision<E> {
  merchantEvent: E;
  claim?: { hash: string; event: ApiKeyClaimed };
  revoke?: { hash: string; event: ApiKeyRevoked };
}

export interface GenerateContext {
  userId: string;
  keyId: string;
  prefix: string;
  last4: string;
  hash: string;
  now: Date;
}

export function decideGenerate(state: MerchantKeysState, c: GenerateContext): KeyDecision<ApiKeyGenerated> {
  const at = c.now.toISOString();
  // A fresh random key equal to the current one would mean the randomness is broken: refuse.
  if (state.current?.hash === c.hash) throw new AppError('CONFLICT', 'errors:internal');
  const { userId, keyId, prefix, last4, hash } = c;
  return {
    merchantEvent: { type: 'ApiKeyGenerated', data: { userId, keyId, prefix, last4, hash, generatedAt: at } },
    claim: { hash, event: { type: 'ApiKeyClaimed', data: { hash, userId, keyId, claimedAt: at } } },
    ...(state.current ? { revoke: revokeCurrent(state.current, userId, 'replaced', at) } : {}),
  };
}

export function decideDelete(state: MerchantKeysState, c: { userId: string; now: Date }): KeyDecision<ApiKeyDeleted> {
  if (!state.current) throw new AppError('NOT_FOUND', 'errors:apiKeyNotFound');
  const at = c.now.toISOString();
  return {
    merchantEvent: { type: 'ApiKeyDeleted', data: { userId: c.userId, keyId: state.current.keyId, deletedAt: at } },
    revoke: revokeCurrent(state.current, c.userId, 'deleted', at),
  };
}

function revokeCurrent(
  current: NonNullable<MerchantKeysState['current']>,
  userId: string,
  reason: 'replaced' | 'deleted',
  at: string,
): { hash: string; event: ApiKeyRevoked } {
  return {
    hash: current.hash,
    event: { type: 'ApiKeyRevoked', data: { hash: current.hash, userId, keyId: current.keyId, reason, revokedAt: at } },
  };
}
