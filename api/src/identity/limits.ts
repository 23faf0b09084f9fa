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
  /** Wrong codes on one sign-in challenge: over it the challenge is void (ADR 045). */
  twoFactorFailuresPerChallenge: RateLimiterRedis;
  /** Wrong codes on one account from any addresses: over it only a recovery code works (ADR 045). */
  twoFactorFailuresPerAccount: RateLimiterRedis;
}

/** Wrong codes a sign-in challenge survives. */
export const TWO_FACTOR_FAILURES_PER_CHALLENGE = 5;
/** How long an account's codes stay locked, counted from its first wrong code of the window. */
export const TWO_FACTOR_LOCK_SECONDS = 60 * 60;

export interface LimitSettings {
  loginFreeFailures: number;
  loginFailuresPerAccount: number;
  loginFailuresPerIp: number;
  registrationsPerIpHour: number;
  resetRequestsPerIp: number;
  twoFactorFailuresPerAccount: number;
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
    resetRequestsPerIp: limiter('reset-ip', settings.resetRequestsPerIp, WINDOW_SECONDS),
    // A challenge lives 5 minutes, so its count need not live longer.
    twoFactorFailuresPerChallenge: limiter('two-factor-challenge', TWO_FACTOR_FAILURES_PER_CHALLENGE, 5 * 60, 0),
    twoFactorFailuresPerAccount: limiter('two-factor-account', settings.twoFactorFailuresPerAccount, TWO_FACTOR_LOCK_SECONDS, 0),
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

/** Counts one use and answers how many the key has used in its window, this one included. */
export async function count(limiter: RateLimiterRedis, key: string): Promise<{ used: number; msBeforeNext: number }> {
  try {
    const res = await limiter.consume(key);
    return { used: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { used: rejection.consumedPoints, msBeforeNext: rejection.msBeforeNext };
    throw rejection;
  }
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

/** RATE_LIMITED with the seconds until the next allowed call, which the answer sends as Retry-After. */
export const tooManyRequests = (msBeforeNext: number) =>
  new AppError('RATE_LIMITED', 'errors:tooManyRequests', {}, { retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) });

/** Counts one call of an API client (a key, a merchant, an address), refusing it with Retry-After when over. */
export async function limitWithRetryAfter(limiter: RateLimiterRedis, key: string): Promise<void> {
  const rejection = await consume(limiter, key);
  if (rejection) throw tooManyRequests(rejection.msBeforeNext);
}
