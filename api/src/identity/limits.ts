/**
 * Rate limits for the identity forms, counted in Redis so they hold across processes: the
 * sign-in throttle per account and address (login-throttle.ts), a ceiling on failed sign-ins per
 * address, a count of failed sign-ins per account that marks it as under attack (it never locks
 * the owner out), and registrations and reset requests per address.
 */
import { AppError } from '@quern/core';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { createLoginThrottle, type LoginThrottle } from './login-throttle.js';

const WINDOW_SECONDS = 15 * 60;

export interface IdentityLimits {
  loginThrottle: LoginThrottle;
  /** Failures per pair before waits begin; 1 while the account is under attack. */
  loginFreeFailures: number;
  /** Counts only: over its points the account is under attack, never blocked. */
  failedLoginsPerAccount: RateLimiterRedis;
  failedLoginsPerIp: RateLimiterRedis;
  registrationsPerIp: RateLimiterRedis;
  resetRequestsPerIp: RateLimiterRedis;
}

export interface LimitSettings {
  loginFreeFailures: number;
  loginFailuresPerAccount: number;
  loginFailuresPerIp: number;
  registrationsPerIpHour: number;
}

export function createIdentityLimits(redis: Redis, settings: LimitSettings, prefix = 'rl'): IdentityLimits {
  const limiter = (name: string, points: number, durationSeconds: number, blockDurationSeconds = durationSeconds) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:${name}`,
      points,
      duration: durationSeconds,
      blockDuration: blockDurationSeconds,
    });
  return {
    loginThrottle: createLoginThrottle(redis, prefix),
    loginFreeFailures: settings.loginFreeFailures,
    failedLoginsPerAccount: limiter('login-account', settings.loginFailuresPerAccount, WINDOW_SECONDS, 0),
    failedLoginsPerIp: limiter('login-ip', settings.loginFailuresPerIp, WINDOW_SECONDS),
    registrationsPerIp: limiter('register-ip', settings.registrationsPerIpHour, 60 * 60),
    resetRequestsPerIp: limiter('reset-ip', 5, WINDOW_SECONDS),
  };
}

const minutesUntil = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 60_000));

export const tooManyAttempts = (msBeforeNext: number) =>
  new AppError('RATE_LIMITED', 'errors:tooManyAttempts', {}, { minutes: minutesUntil(msBeforeNext) });

/** Whether the key has used up its points (for a limiter that only counts). */
export async function isOver(limiter: RateLimiterRedis, key: string): Promise<boolean> {
  const state = await limiter.get(key);
  return state !== null && state.consumedPoints >= limiter.points;
}

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
