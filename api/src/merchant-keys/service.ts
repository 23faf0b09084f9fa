/**
 * The API Direct use cases (spec section 2, API Direct; section 7's /api/direct/* calls) and the
 * bearer-key authentication of the integrator API (/api/v1). Keys are stored hashed and shown in
 * full once, when generated; key-get answers them masked (ADR 030).
 */
import { randomBytes } from 'node:crypto';
import { AppError, type QuernMode } from '@quern/core';
import { loadUser } from '@quern/core/identity';
import { directText, type Language } from '@quern/core/i18n';
import {
  API_KEY_RANDOM_BYTES,
  apiKeyModeOf,
  currentMaskedApiKey,
  deleteApiKey,
  findMerchantByApiKey,
  generateApiKey,
  hashApiKey,
  type KeyDeleteOutput,
  type KeyGenerateOutput,
  type KeyGetOutput,
  type MerchantKeyDeps,
} from '@quern/core/merchant-keys';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { limitWithRetryAfter } from '../identity/limits.js';
import type { Session } from '../identity/sessions.js';

export interface MerchantKeysServiceDeps {
  core: MerchantKeyDeps;
  /** QUERN_MODE: the prefix of the keys issued (qk_test_ or qk_live_) and which keys are refused (ADR 050). */
  mode: QuernMode;
  redis: Redis;
  /** Requests one key may make per minute before it gets 429 (API_KEY_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number;
  /** Redis key prefix of the limiter (tests give each Quern its own Redis anyway). */
  limiterPrefix?: string;
}

/** The merchant a request's key authenticates. */
export interface Merchant {
  userId: string;
}

export type MerchantKeysService = ReturnType<typeof createMerchantKeysService>;

/** `Bearer <token>`: one scheme, one token, nothing else. Keys are 51 characters; 200 bounds the work. */
const BEARER = /^Bearer +([\x21-\x7e]{1,200})$/i;

export const invalidApiKey = () => new AppError('UNAUTHENTICATED', 'errors:invalidApiKey');

/**
 * A key of the other mode, refused with a message that says why (ADR 050). A live Quern refuses
 * every qk_test_ key before any lookup: test keys never move real money. A sandbox knows the
 * qk_live_ keys it issued before keys carried their mode, so it refuses only those it does not
 * know (e.g. a live Quern's key pasted into a test setup).
 */
const otherModeKey = (mode: QuernMode) =>
  new AppError('UNAUTHENTICATED', mode === 'live' ? 'errors:sandboxKeyOnLive' : 'errors:liveKeyOnSandbox');

export function createMerchantKeysService(deps: MerchantKeysServiceDeps) {
  const { core } = deps;
  const perKey = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.limiterPrefix ?? 'rl'}:api-key`,
    points: deps.requestsPerMinute,
    duration: 60,
  });

  return {
    async keyGet(session: Session): Promise<KeyGetOutput> {
      return { status: 'success', content: { api_key: await currentMaskedApiKey(core, session.userId) } };
    },

    async keyGenerate(session: Session, language: Language): Promise<KeyGenerateOutput> {
      const { apiKey } = await generateApiKey(core, session.userId, new Uint8Array(randomBytes(API_KEY_RANDOM_BYTES)), deps.mode);
      return { status: 'success', message: directText('keyGenerated', language), content: { api_key: apiKey } };
    },

    async keyDelete(session: Session, language: Language): Promise<KeyDeleteOutput> {
      await deleteApiKey(core, session.userId);
      return { status: 'success', message: directText('keyDeleted', language) };
    },

    /**
     * The merchant behind an `Authorization: Bearer <key>` header, counted against the key's
     * per-minute limit. No header, a malformed one, an unknown, replaced or deleted key: 401; a
     * key of the other mode: 401 saying so (otherModeKey). Only keys that authenticate are
     * counted, so a stranger cannot use up a merchant's limit.
     */
    async authenticate(authorization: string | undefined): Promise<Merchant> {
      const token = BEARER.exec(authorization ?? '')?.[1];
      if (!token) throw invalidApiKey();
      const keyMode = apiKeyModeOf(token);
      if (deps.mode === 'live' && keyMode === 'sandbox') throw otherModeKey(deps.mode);
      const userId = await findMerchantByApiKey(core, token);
      if (!userId) throw keyMode !== undefined && keyMode !== deps.mode ? otherModeKey(deps.mode) : invalidApiKey();
      await limitWithRetryAfter(perKey, hashApiKey(token));
      return { userId };
    },

    /** GET /api/v1/me: who the key belongs to, so an integrator can check its setup. */
    async me(merchant: Merchant): Promise<{ id: string; username: string }> {
      const { state } = await loadUser(core, merchant.userId);
      // The account behind a claimed key always exists; a missing one is a broken log, not the caller's fault.
      if (!state) throw new Error(`API key of unknown user ${merchant.userId}`);
      return { id: state.userId, username: state.username };
    },
  };
}
