/** Folds the merchant's key stream and a key's claim stream into what the decisions need. */
import { assertNever } from '../shared/assert.js';
import { strictParser, type StreamModel } from '../shared/command-handler.js';
import { type ApiKeyClaimEvent, type MerchantKeyEvent, toApiKeyClaimEvent, toMerchantKeyEvent } from './events.js';

export interface CurrentApiKey {
  keyId: string;
  prefix: string;
  last4: string;
  hash: string;
  generatedAt: string;
}

/** At most one key is current: a new one replaces the previous at once. */
export interface MerchantKeysState {
  current?: CurrentApiKey;
}

export function evolveMerchantKeys(state: MerchantKeysState, event: MerchantKeyEvent): MerchantKeysState {
  switch (event.type) {
    case 'ApiKeyGenerated': {
      const { keyId, prefix, last4, hash, generatedAt } = event.data;
      return { current: { keyId, prefix, last4, hash, generatedAt } };
    }
    case 'ApiKeyDeleted':
      return state.current?.keyId === event.data.keyId ? {} : state;
    default:
      return assertNever(event);
  }
}

export interface ApiKeyClaimState {
  /** The merchant the key authenticates, while it is not revoked. */
  userId?: string;
  keyId?: string;
}

export function evolveApiKeyClaim(_state: ApiKeyClaimState, event: ApiKeyClaimEvent): ApiKeyClaimState {
  switch (event.type) {
    case 'ApiKeyClaimed':
      return { userId: event.data.userId, keyId: event.data.keyId };
    case 'ApiKeyRevoked':
      return {};
    default:
      return assertNever(event);
  }
}

/** The merchant's key stream for the command pipeline; an event it cannot read is refused. */
export const merchantKeysModel: StreamModel<MerchantKeysState, MerchantKeyEvent> = {
  initialState: () => ({}),
  evolve: evolveMerchantKeys,
  parse: strictParser(toMerchantKeyEvent),
};

/** A key's claim stream, read the same way. */
export const apiKeyClaimModel: StreamModel<ApiKeyClaimState, ApiKeyClaimEvent> = {
  initialState: () => ({}),
  evolve: evolveApiKeyClaim,
  parse: strictParser(toApiKeyClaimEvent),
};
