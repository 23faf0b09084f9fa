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
import { z } from 'zod';

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

const id = z.string().min(1).max(128);
const time = z.string().min(1).max(64);
const hash = z.string().regex(/^[0-9a-f]{64}$/);

const merchantKeyEventDataSchemas = {
  ApiKeyGenerated: z.object({
    userId: id,
    keyId: id,
    prefix: z.string().max(16),
    last4: z.string().max(16),
    hash,
    generatedAt: time,
  }),
  ApiKeyDeleted: z.object({ userId: id, keyId: id, deletedAt: time }),
} satisfies Record<MerchantKeyEvent['type'], z.ZodType>;

const apiKeyClaimEventDataSchemas = {
  ApiKeyClaimed: z.object({ hash, userId: id, keyId: id, claimedAt: time }),
  ApiKeyRevoked: z.object({ hash, userId: id, keyId: id, reason: z.enum(['replaced', 'deleted']), revokedAt: time }),
} satisfies Record<ApiKeyClaimEvent['type'], z.ZodType>;

const isMerchantKeyEventType = (type: string): type is MerchantKeyEvent['type'] => Object.hasOwn(merchantKeyEventDataSchemas, type);
const isApiKeyClaimEventType = (type: string): type is ApiKeyClaimEvent['type'] => Object.hasOwn(apiKeyClaimEventDataSchemas, type);

/** A recorded event of a merchant's key stream as a typed event, or undefined when it is not one or has not its shape. */
export function toMerchantKeyEvent(recorded: { type: string; data: unknown }): MerchantKeyEvent | undefined {
  if (!isMerchantKeyEventType(recorded.type)) return undefined;
  const parsed = merchantKeyEventDataSchemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as MerchantKeyEvent) : undefined;
}

/** A recorded event of a key's claim stream as a typed event, or undefined when it is not one or has not its shape. */
export function toApiKeyClaimEvent(recorded: { type: string; data: unknown }): ApiKeyClaimEvent | undefined {
  if (!isApiKeyClaimEventType(recorded.type)) return undefined;
  const parsed = apiKeyClaimEventDataSchemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as ApiKeyClaimEvent) : undefined;
}
