// Proves sessions in real Redis end at their absolute lifetime however busy they are, slide with
// use before that, and that a password change can end every other session of a user but its own.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore } from './sessions.js';

const DAY_MS = 24 * 3600 * 1000;
let redis: Redis;
let nowMs = Date.parse('2026-11-24T08:00:00Z');
const clock = () => nowMs;

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL as string);
});
afterAll(() => {
  redis.disconnect();
});

describe('session lifetime', () => {
  it('given a session used every day, when 30 days have passed since sign-in, then it is gone', async () => {
    const store = createSessionStore(redis, { ttlHours: 48, maxAgeDays: 30, nowMs: clock });
    const userId = randomUUID();
    const token = await store.create(userId, 'a@example.com', new Date(nowMs));
    for (let day = 1; day < 30; day++) {
      nowMs += DAY_MS;
      expect(await store.get(token)).toMatchObject({ userId });
    }
    nowMs += DAY_MS;
    expect(await store.get(token)).toBeUndefined();
    // Gone for good, not merely refused: Redis no longer holds it.
    expect(await redis.smembers(`session-user:${userId}`)).toEqual([]);
  });

  it('given a session near its absolute end, when used, then Redis expires it at that end, not a full idle TTL later', async () => {
    const store = createSessionStore(redis, { ttlHours: 48, maxAgeDays: 1, nowMs: clock });
    const createdAt = new Date(nowMs);
    const token = await store.create(randomUUID(), 'b@example.com', createdAt);
    nowMs += DAY_MS - 3600 * 1000;
    expect(await store.get(token)).toBeDefined();
    const [sessionKey] = await redis.smembers(`session-user:${(await store.get(token))?.userId}`);
    const ttl = await redis.ttl(sessionKey as string);
    expect(ttl).toBeGreaterThan(3500);
    expect(ttl).toBeLessThanOrEqual(3600);
  });

  it('given tokens that are not ours, when looked up, then nothing is found', async () => {
    const store = createSessionStore(redis, { ttlHours: 1, maxAgeDays: 1, nowMs: clock });
    for (const token of [undefined, '', 'short', 'x'.repeat(43), '../../etc/passwd'.padEnd(43, 'a')]) {
      expect(await store.get(token)).toBeUndefined();
    }
  });
});

describe('ending other sessions', () => {
  it('given three sessions of a user and one of another, when the user changes password in one, then only that one and the other user’s stay', async () => {
    const store = createSessionStore(redis, { ttlHours: 1, maxAgeDays: 30, nowMs: clock });
    const userId = randomUUID();
    const [current, laptop, phone] = await Promise.all([1, 2, 3].map(() => store.create(userId, 'c@example.com', new Date(nowMs))));
    const stranger = await store.create(randomUUID(), 'd@example.com', new Date(nowMs));

    await store.destroyOthersFor(userId, current);

    expect(await store.get(current)).toMatchObject({ userId });
    expect(await store.get(laptop)).toBeUndefined();
    expect(await store.get(phone)).toBeUndefined();
    expect(await store.get(stranger)).toBeDefined();
    // And a later reset still ends the one that stayed.
    await store.destroyAllFor(userId);
    expect(await store.get(current)).toBeUndefined();
  });

  it('given an invalid keep token, when others are ended, then every session of the user ends', async () => {
    const store = createSessionStore(redis, { ttlHours: 1, maxAgeDays: 30, nowMs: clock });
    const userId = randomUUID();
    const token = await store.create(userId, 'e@example.com', new Date(nowMs));
    await store.destroyOthersFor(userId, 'not-a-token');
    expect(await store.get(token)).toBeUndefined();
  });
});
