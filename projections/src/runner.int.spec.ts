// Proves the projection runner applies each event exactly once (across restarts, a racing second runner and FLUSHALL), serves read-your-writes, and retries a failing event instead of skipping it.
import type { RecordedEvent } from '@quern/core';
import { userStream } from '@quern/core/identity';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProjections } from './runner.js';
import { registerUsers, userRegistered } from '../test/events.js';
import { captureLog, eventually, openPrivateRedis, type PrivateRedis } from '../test/redis.js';
import { openTempStore, type TempStore } from '../test/store.js';
import type { Projection } from './types.js';
import { usersProjection } from './users/projection.js';
import { findUserIdByEmail, findUserIdByUsername, getUser } from './users/queries.js';

/** Counts applications per event id: any double application shows up as a 2. */
const countingProjection: Projection = {
  name: 'counting',
  apply(event, tx) {
    tx.hincrby('rm:test:applied', event.id, 1);
    tx.incr('rm:test:total');
  },
};

const fastRetry = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50 };

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

async function appliedCounts(): Promise<number[]> {
  return Object.values(await redis.redis.hgetall('rm:test:applied')).map(Number);
}

describe('startProjections', () => {
  it('given registrations, when the runner follows the log, then queries answer and a new write is readable after waitForPosition', async () => {
    const ids = await registerUsers(temp.store, 3);
    const log = captureLog();
    const runner = startProjections({ store: temp.store, redis: redis.redis, projections: [usersProjection], logger: log.logger });
    try {
      const userId = 'a6c0b3e4-1d7e-4c39-9b0a-2f5e8d7c6b5a';
      const appended = await temp.store.append(userStream(userId), [userRegistered(99, userId)], 'no_stream');
      await expect(runner.waitForPosition(appended.position, 5_000)).resolves.toBe(true);

      expect(await getUser(redis.redis, userId)).toMatchObject({ id: userId, username: 'User_99', email: 'user99@example.com' });
      expect(await findUserIdByUsername(redis.redis, ' USER_99 ')).toBe(userId);
      expect(await findUserIdByEmail(redis.redis, 'User99@Example.com')).toBe(userId);
      expect(await getUser(redis.redis, ids[0] as string)).toMatchObject({ username: 'User_0', first_name: 'First0' });
      expect(await getUser(redis.redis, 'no-such-user')).toBeNull();
      expect(await findUserIdByEmail(redis.redis, 'nobody@example.com')).toBeNull();
      expect(await redis.redis.get('rm:checkpoint')).toBe(appended.position.toString());
      expect(runner.status()).toEqual({ running: true, position: appended.position.toString(), lastError: undefined });
      expect(log.error).toEqual([]);
    } finally {
      await runner.close();
    }
    expect(runner.status().running).toBe(false);
  });

  it('given a position that is never appended, when waited for, then it resolves false after the timeout', async () => {
    const runner = startProjections({ store: temp.store, redis: redis.redis, projections: [usersProjection], logger: captureLog().logger });
    try {
      await expect(runner.waitForPosition(1_000_000n, 100)).resolves.toBe(false);
    } finally {
      await runner.close();
    }
  });

  it('given two runners racing and one restarted mid-stream, when 300 events are appended, then each event is applied exactly once', async () => {
    const options = {
      store: temp.store,
      redis: redis.redis,
      projections: [countingProjection],
      maxBatchSize: 7,
      logger: captureLog().logger,
    };
    const first = startProjections(options);
    const second = startProjections(options);
    await registerUsers(temp.store, 150);
    await first.close();
    const restarted = startProjections(options);
    await registerUsers(temp.store, 150, 150);
    const end = (await temp.store.readAll({ after: 299n, maxCount: 10 })).at(-1)?.position ?? 300n;
    try {
      await eventually(async () => (await redis.redis.get('rm:checkpoint')) === end.toString(), 20_000, 'the checkpoint reaches the end');
      expect(await redis.redis.get('rm:test:total')).toBe('300');
      const counts = await appliedCounts();
      expect(counts).toHaveLength(300);
      expect(counts.every((count) => count === 1)).toBe(true);
    } finally {
      await Promise.all([second.close(), restarted.close()]);
    }
  });

  it('given an event that fails twice, when the runner meets it, then it logs its position, keeps the events before it, and applies it on a retry', async () => {
    await registerUsers(temp.store, 5);
    const failing = (await temp.store.readAll({ maxCount: 5 }))[3] as RecordedEvent;
    let failuresLeft = 2;
    const flaky: Projection = {
      name: 'flaky',
      apply(event, tx) {
        if (event.position === failing.position && failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('read model not ready');
        }
        countingProjection.apply(event, tx);
      },
    };
    const log = captureLog();
    const runner = startProjections({
      store: temp.store,
      redis: redis.redis,
      projections: [flaky],
      retryPolicy: fastRetry,
      logger: log.logger,
    });
    try {
      await expect(runner.waitForPosition(failing.position + 1n, 5_000)).resolves.toBe(true);
      expect(log.error.filter((line) => line.includes(`position ${failing.position}`))).toHaveLength(2);
      expect(await redis.redis.get('rm:test:total')).toBe('5');
      expect((await appliedCounts()).every((count) => count === 1)).toBe(true);
      expect(runner.status()).toMatchObject({ running: true, lastError: undefined });
    } finally {
      await runner.close();
    }
  });

  it('given an event that always fails, when the retries run out, then the runner stops with the error and the checkpoint stays before it', async () => {
    await registerUsers(temp.store, 4);
    const events = await temp.store.readAll({ maxCount: 4 });
    const poisoned = events[2] as RecordedEvent;
    const broken: Projection = {
      name: 'broken',
      apply(event, tx) {
        if (event.position === poisoned.position) throw new Error('cannot project this');
        countingProjection.apply(event, tx);
      },
    };
    const log = captureLog();
    const runner = startProjections({
      store: temp.store,
      redis: redis.redis,
      projections: [broken],
      retryPolicy: fastRetry,
      logger: log.logger,
    });
    try {
      await eventually(() => !runner.status().running, 5_000, 'the runner stops');
      expect(runner.status().lastError).toContain(`position ${poisoned.position}`);
      expect(runner.status().lastError).toContain('cannot project this');
      expect(await redis.redis.get('rm:checkpoint')).toBe(events[1]?.position.toString());
      expect(await redis.redis.get('rm:test:total')).toBe('2');
      expect(log.error.at(-1)).toMatch(/stopping after 4 failed attempts/);
    } finally {
      await runner.close();
    }
  });

  it('given FLUSHALL while the log is quiet, when the runner checks its checkpoint, then it rebuilds the read models from the start', async () => {
    const ids = await registerUsers(temp.store, 20);
    const runner = startProjections({
      store: temp.store,
      redis: redis.redis,
      projections: [usersProjection, countingProjection],
      checkpointCheckIntervalMs: 50,
      logger: captureLog().logger,
    });
    try {
      await eventually(async () => (await redis.redis.get('rm:test:total')) === '20', 5_000, 'the first pass');
      await redis.redis.flushall();
      await eventually(async () => (await redis.redis.get('rm:test:total')) === '20', 5_000, 'the pass after FLUSHALL');
      expect(await getUser(redis.redis, ids[19] as string)).toMatchObject({ username: 'User_19' });
      expect((await appliedCounts()).every((count) => count === 1)).toBe(true);
    } finally {
      await runner.close();
    }
  });
});
