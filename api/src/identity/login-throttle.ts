/**
 * Sign-in throttling per account and address pair, with growing waits (see ADR 015). A pair may
 * fail a few times freely; after that each try must wait, twice as long as the last time, up to
 * an hour. The owner signing in from another address has a pair of their own, so an attacker
 * cannot lock them out, while a brute force from one address gets slower and slower.
 *
 * Every try is counted as a failure before the password is checked, atomically in Redis, so
 * parallel tries from one pair cannot slip past the wait; a correct password clears the pair.
 */
import type { Redis } from 'ioredis';

/** The first wait, after the free failures are used up. */
export const FIRST_WAIT_MS = 60_000;
/** Waits stop growing here. */
export const MAX_WAIT_MS = 60 * 60_000;
/** A pair's failures are forgotten this long after its last try. */
const PAIR_MEMORY_SECONDS = 24 * 60 * 60;

/** How long a pair must wait after its `failures`-th failure: 0, then 1, 2, 4 ... 60 minutes. */
export function waitAfterFailuresMs(failures: number, freeFailures: number): number {
  if (failures < freeFailures) return 0;
  const doublings = Math.min(failures - freeFailures, 16);
  return Math.min(FIRST_WAIT_MS * 2 ** doublings, MAX_WAIT_MS);
}

/** Waits for the 1st, 2nd ... failure until they stop growing; the last one repeats. */
export function waitSchedule(freeFailures: number): number[] {
  const schedule: number[] = [];
  for (let failures = 1; ; failures++) {
    const waitMs = waitAfterFailuresMs(failures, freeFailures);
    schedule.push(waitMs);
    if (waitMs >= MAX_WAIT_MS) return schedule;
  }
}

// KEYS[1]: the pair. ARGV[1]: now in ms, ARGV[2]: memory in seconds, ARGV[3..]: the wait schedule.
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'nextAt') or '0')
if now < nextAt then return {0, nextAt - now} end
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0') + 1
local scheduleLength = #ARGV - 2
local wait = tonumber(ARGV[2 + math.min(failures, scheduleLength)])
redis.call('HSET', KEYS[1], 'failures', failures, 'nextAt', now + wait)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {1, wait}
`;

export type AttemptDecision = { allowed: true } | { allowed: false; waitMs: number };

export interface LoginThrottle {
  /** Counts a try of the pair, or refuses it with how long to wait. */
  attempt(account: string, ip: string, nowMs: number, freeFailures: number): Promise<AttemptDecision>;
  /** The right password: the pair starts afresh. */
  succeeded(account: string, ip: string): Promise<void>;
}

export function createLoginThrottle(redis: Redis, prefix = 'rl'): LoginThrottle {
  const pairKey = (account: string, ip: string) => `${prefix}:login-pair:${account}:${ip}`;
  const schedules = new Map<number, string[]>();
  const scheduleFor = (freeFailures: number) => {
    let schedule = schedules.get(freeFailures);
    if (!schedule) {
      schedule = waitSchedule(freeFailures).map(String);
      schedules.set(freeFailures, schedule);
    }
    return schedule;
  };
  return {
    async attempt(account, ip, nowMs, freeFailures) {
      const args = [String(nowMs), String(PAIR_MEMORY_SECONDS), ...scheduleFor(freeFailures)];
      const [allowed, waitMs] = (await redis.eval(ATTEMPT_SCRIPT, 1, pairKey(account, ip), ...args)) as [number, number];
      return allowed === 1 ? { allowed: true } : { allowed: false, waitMs };
    },
    async succeeded(account, ip) {
      await redis.del(pairKey(account, ip));
    },
  };
}
