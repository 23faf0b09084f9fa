/**
 * Rate limits for the identity forms, counted in Redis so they hold across processes:
 * failed sign-ins per account and per IP, registrations and reset requests per IP.
 */
import { AppError } from '@quern/core';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

const WINDOW_SECONDS = 15 * 60;

export interface IdentityLimits {
  failedLoginsPerAccount: RateLimiterRedis;
  failedLoginsPerIp: RateLimiterRedis;
  registrationsPerIp: RateLimiterRedis;
  resetRequestsPerIp: RateLimiterRedis;
}

export interface LimitSettings {
  loginFailuresPerAccount: number;
  loginFailuresPerIp: number;
  registrationsPerIpHour: number;
}

export function createIdentityLimits(redis: Redis, settings: LimitSettings, prefix = 'rl'): IdentityLimits {
  const limiter = (name: string, points: number, durationSeconds: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:${name}`,
      points,
      duration: durationSeconds,
      blockDuration: durationSeconds,
    });
  return {
    failedLoginsPerAccount: limiter('login-account', settings.loginFailuresPerAccount, WINDOW_SECONDS),
    failedLoginsPerIp: limiter('login-ip', settings.loginFailuresPerIp, WINDOW_SECONDS),
    registrationsPerIp: limiter('register-ip', settings.registrationsPerIpHour, 60 * 60),
    resetRequestsPerIp: limiter('reset-ip', 5, WINDOW_SECONDS),
  };
}

const minutesUntil = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 60_000));

export const tooManyAttempts = (msBeforeNext: number) =>
  new AppError('RATE_LIMITED', 'errors:tooManyAttempts', {}, { minutes: minutesUntil(msBeforeNext) });

/** Throws RATE_LIMITED when the key has already used up its points. */
export async function assertNotBlocked(limiter: RateLimiterRedis, key: string, error = tooManyAttempts): Promise<void> {
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= limiter.points) throw error(state.msBeforeNext);
}

/** Counts one use; returns the rejection when this use went over the limit. */
export async function consume(limiter: RateLimiterRedis, key: string): Promise<RateLimiterRes | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}

/** Counts one request against a plain per-IP limit, refusing it when over. */
export async function limitRequest(limiter: RateLimiterRedis, key: string): Promise<void> {
  const rejection = await consume(limiter, key);
  if (rejection) throw new AppError('RATE_LIMITED', 'errors:tooManyRequests', {}, { minutes: minutesUntil(rejection.msBeforeNext) });
}
