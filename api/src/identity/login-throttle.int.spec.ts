// Proves the sign-in throttle in real Redis: a pair fails freely a few times, then each try must
// wait twice as long as the last (up to an hour), parallel tries cannot slip past a wait, another
// address is not affected, and the right password clears the pair.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginThrottle, FIRST_WAIT_MS, MAX_WAIT_MS, waitAfterFailuresMs, waitSchedule } from './login-throttle.js';

let redis: Redis;
const prefix = `test-throttle-${randomUUID()}`;

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL as string);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('wait schedule', () => {
  it('is free for the first failures, then doubles from one minute and stops at an hour', () => {
    expect([1, 2, 3, 4].map((f) => waitAfterFailuresMs(f, 5))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7].map((f) => waitAfterFailuresMs(f, 5))).toEqual([FIRST_WAIT_MS, 2 * FIRST_WAIT_MS, 4 * FIRST_WAIT_MS]);
    expect(waitAfterFailuresMs(500, 5)).toBe(MAX_WAIT_MS);
    expect(waitSchedule(1).at(-1)).toBe(MAX_WAIT_MS);
  });
});

describe('login throttle', () => {
  it('given a brute force from one address, when it keeps trying as soon as allowed, then the waits grow', async () => {
    const throttle = createLoginThrottle(redis, prefix);
    const account = `${randomUUID()}@example.com`;
    let nowMs = 1_000_000;
    for (let i = 0; i < 5; i++) expect(await throttle.attempt(account, '198.51.100.7', nowMs, 5)).toEqual({ allowed: true });

    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      const refused = await throttle.attempt(account, '198.51.100.7', nowMs, 5);
      if (refused.allowed) throw new Error('a try inside the wait was allowed');
      waits.push(refused.waitMs);
      nowMs += refused.waitMs;
      expect(await throttle.attempt(account, '198.51.100.7', nowMs, 5)).toEqual({ allowed: true });
    }
    expect(waits).toEqual([FIRST_WAIT_MS, 2 * FIRST_WAIT_MS, 4 * FIRST_WAIT_MS, 8 * FIRST_WAIT_MS]);
  });

  it('given a pair that must wait, when another address tries the same account, then it is allowed', async () => {
    const throttle = createLoginThrottle(redis, prefix);
    const account = `${randomUUID()}@example.com`;
    for (let i = 0; i < 6; i++) await throttle.attempt(account, '203.0.113.1', 0, 5);
    expect((await throttle.attempt(account, '203.0.113.1', 1, 5)).allowed).toBe(false);
    expect(await throttle.attempt(account, '203.0.113.2', 1, 5)).toEqual({ allowed: true });
  });

  it('given 20 parallel tries from a pair with one free failure, when they race, then exactly one gets through', async () => {
    const throttle = createLoginThrottle(redis, prefix);
    const account = `${randomUUID()}@example.com`;
    const decisions = await Promise.all(Array.from({ length: 20 }, () => throttle.attempt(account, '192.0.2.9', 5_000, 1)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1);
  });

  it('given a pair that had to wait, when the right password is given, then the pair starts afresh', async () => {
    const throttle = createLoginThrottle(redis, prefix);
    const account = `${randomUUID()}@example.com`;
    for (let i = 0; i < 5; i++) await throttle.attempt(account, '192.0.2.10', 0, 5);
    await throttle.succeeded(account, '192.0.2.10');
    for (let i = 0; i < 4; i++) expect((await throttle.attempt(account, '192.0.2.10', 0, 5)).allowed).toBe(true);
  });
});
