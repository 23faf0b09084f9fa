/**
 * The API Direct use cases (spec section 2, API Direct; section 7's /api/direct/* calls) and the
 * bearer-key authentication of the integrator API (/api/v1). Keys are stored hashed and shown in
 * full once, when generated; key-get answers them masked (ADR 030).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@quern/core';
import { loadUser } from '@quern/core/identity';
import { directText, type Language } from '@quern/core/i18n';
import {
  API_KEY_RANDOM_BYTES,
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
import { consume } from '../identity/limits.js';
import type { Session } from '../identity/sessions.js';

export interface DirectServiceDeps {
  core: MerchantKeyDeps;
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

export type DirectService = ReturnType<typeof createDirectService>;

/** `Bearer <token>`: one scheme, one token, nothing else. Keys are 51 characters; 200 bounds the work. */
const BEARER = /^Bearer +([\x21-\x7e]{1,200})$/i;

export const invalidApiKey = () => new AppError('UNAUTHENTICATED', 'errors:invalidApiKey');

export function createDirectService(deps: DirectServiceDeps) {
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
      const { apiKey } = await generateApiKey(core, session.userId, new Uint8Array(randomBytes(API_KEY_RANDOM_BYTES)));
      return { status: 'success', message: directText('keyGenerated', language), content: { api_key: apiKey } };
    },

    async keyDelete(session: Session, language: Language): Promise<KeyDeleteOutput> {
      await deleteApiKey(core, session.userId);
      return { status: 'success', message: directText('keyDeleted', language) };
    },

    /**
     * The merchant behind an `Authorization: Bearer <key>` header, counted against the key's
     * per-minute limit. No header, a malformed one, an unknown, replaced or deleted key: 401.
     * Only keys that authenticate are counted, so a stranger cannot use up a merchant's limit.
     */
    async authenticate(authorization: string | undefined): Promise<Merchant> {
      const token = BEARER.exec(authorization ?? '')?.[1];
      if (!token) throw invalidApiKey();
      const userId = await findMerchantByApiKey(core, token);
      if (!userId) throw invalidApiKey();
      const rejection = await consume(perKey, hashApiKey(token));
      if (rejection)
        throw new AppError(
          'RATE_LIMITED',
          'errors:tooManyRequests',
          {},
          { retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) },
        );
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
