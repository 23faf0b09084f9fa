/**
 * API Direct key events. Published event types are never renamed; a new shape gets a new type.
 *
 * Streams:
 * - `merchant-keys-<userId>`: the merchant's key history (generated, deleted). Its own stream,
 *   not `user-<userId>`, so a sign-in never races a key change.
 * - `merchant-key-<sha256 hex>`: one stream per key, claimed with expected revision "no stream"
 *   in the same atomic append as ApiKeyGenerated, and revoked in the same append that replaces
 *   or deletes the key. Looking a key up reads this one short stream: O(1) and strongly
 *   consistent, so a replaced or deleted key stops working the moment the append is durable.
 */

export const merchantKeysStream = (userId: string): string => `merchant-keys-${userId}`;
export const merchantKeyClaimStream = (hashHex: string): string => `merchant-key-${hashHex}`;

export interface ApiKeyGenerated {
  type: 'ApiKeyGenerated';
  data: {
    userId: string;
    keyId: string;
    /** The key's public prefix (`qk_test_` or `qk_live_`, ADR 050), kept to show the key masked. */
    prefix: string;
    /** The key's last four characters, kept to show the key masked. */
    last4: string;
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    hash: string;
    generatedAt: string;
  };
}

export interface ApiKeyDeleted {
  type: 'ApiKeyDeleted';
  data: { userId: string; keyId: string; deletedAt: string };
}

export type MerchantKeyEvent = ApiKeyGenerated | ApiKeyDeleted;

export interface ApiKeyClaimed {
  type: 'ApiKeyClaimed';
  data: { hash: string; userId: string; keyId: string; claimedAt: string };
}

/** The key stops authenticating: its owner generated a new one, or deleted it. */
export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: { hash: string; userId: string; keyId: string; reason: 'replaced' | 'deleted'; revokedAt: string };
}

export type ApiKeyClaimEvent = ApiKeyClaimed | ApiKeyRevoked;
