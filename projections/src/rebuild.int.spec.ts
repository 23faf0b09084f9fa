// Proves a rebuild from position 0 yields exactly the read models the live runner built, removes stale keys, and cannot interleave with a live runner.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildProjections } from './rebuild.js';
import { startProjections } from './runner.js';
import { dumpKeys } from '../test/redis-dump.js';
import { registerUsers } from '../test/events.js';
import { captureLog, eventually, openPrivateRedis, type PrivateRedis } from '../test/redis.js';
import { openTempStore, type TempStore } from '../test/store.js';
import type { Projection } from './types.js';
import { usersProjection } from './users/projection.js';

/** Not idempotent on purpose: replaying an event twice would show in the totals. */
const countingProjection: Projection = {
  name: 'counting',
  apply(event, tx) {
    tx.hincrby('rm:test:applied', event.id, 1);
    tx.incr('rm:test:total');
  },
};
const projections = [usersProjection, countingProjection];

let redis: PrivateRedis;
let temp: TempStore;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  temp = openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

/** Appends in concurrent groups so 1,200 registrations take a moment, not minutes. */
async function registerMany(count: number): Promise<void> {
  const groupSize = 100;
  for (let first = 0; first < count; first += groupSize) {
    const groups = Array.from({ length: Math.min(groupSize, count - first) / 10 }, (_, g) => registerUsers(temp.store, 10, first + g * 10));
    await Promise.all(groups);
  }
}

describe('rebuildProjections', () => {
  it('given read models built live from 1,200 events, when rebuilt from position 0, then every rm: key and value is the same', async () => {
    await registerMany(1_200);
    const runner = startProjections({ store: temp.store, redis: redis.redis, projections, maxBatchSize: 500, logger: captureLog().logger });
    const last = (await temp.store.readAll({ after: 1_199n, maxCount: 1 }))[0];
    expect(last).toBeDefined();
    await expect(runner.waitForPosition(last?.position ?? 0n, 20_000)).resolves.toBe(true);
    await runner.close();
    const live = await dumpKeys(redis.redis, 'rm:*');
    await redis.redis.hset('rm:user:stale-user', 'id', 'stale-user');

    const report = await rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 333 });

    expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
    expect(Object.keys(live)).toHaveLength(1_200 + 2 + 3);
    expect(report.events).toBe(1_200);
    expect(report.position).toBe(last?.position);
    // The user hashes, the two lookups, the two counters and the stray key; the checkpoint is kept (fenced).
    expect(report.deletedKeys).toBe(1_200 + 2 + 2 + 1);
    expect(report.eventsPerSecond).toBeGreaterThan(0);
  });

  it('given an empty log and leftover read models, when rebuilt, then they are gone and no checkpoint remains', async () => {
    await redis.redis.set('rm:checkpoint', '42');
    await redis.redis.hset('rm:user:ghost', 'id', 'ghost');
    await redis.redis.set('session:keep-me', 'not a read model');

    const report = await rebuildProjections({ store: temp.store, redis: redis.redis, projections });

    expect(report).toMatchObject({ events: 0, deletedKeys: 1, position: undefined });
    expect(await redis.redis.keys('rm:*')).toEqual([]);
    expect(await redis.redis.get('session:keep-me')).toBe('not a read model');
  });

  it('given a live runner, when a rebuild runs beside it, then the runner waits, resumes after it, and nothing is applied twice', async () => {
    await registerMany(300);
    const runner = startProjections({
      store: temp.store,
      redis: redis.redis,
      projections,
      checkpointCheckIntervalMs: 20,
      logger: captureLog().logger,
    });
    try {
      await eventually(async () => (await redis.redis.get('rm:test:total')) === '300', 10_000, 'the live pass');
      const rebuilding = rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 50 });
      await registerUsers(temp.store, 50, 300);
      await rebuilding;
      await eventually(async () => (await redis.redis.get('rm:test:total')) === '350', 10_000, 'the runner resumes after the rebuild');
      const counts = Object.values(await redis.redis.hgetall('rm:test:applied')).map(Number);
      expect(counts).toHaveLength(350);
      expect(counts.every((count) => count === 1)).toBe(true);
      expect(runner.status().running).toBe(true);
    } finally {
      await runner.close();
    }
  });

  it('given two rebuilds at once, when the second fences the checkpoint, then the first fails instead of interleaving and the result is whole', async () => {
    await registerMany(100);
    const runner = startProjections({ store: temp.store, redis: redis.redis, projections, logger: captureLog().logger });
    await eventually(async () => (await redis.redis.get('rm:test:total')) === '100', 10_000, 'the live pass');
    await runner.close();
    const first = rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 10 });
    // A second rebuild replaces the fence; the first must notice at its next commit and stop.
    const second = rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 10 });
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: { message: expect.stringMatching(/checkpoint changed during the rebuild/) },
    });
    expect(await redis.redis.get('rm:test:total')).toBe('100');
    expect(await redis.redis.hlen('rm:user-id-by-email')).toBe(100);
  });
});
