// Proves the dispatcher enqueues each request once under its deterministic id, resumes from its checkpoint without re-scanning, and reports and passes over a malformed request.
import { userStream } from '@quern/core/identity';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDispatcher, type Dispatcher } from './dispatcher.js';
import { WELCOME_EMAIL_QUEUE } from './jobs.js';
import { registerUser } from '../test/identity-events.js';
import { captureLog, connectRedis, deleteKeys, eventually, uniquePrefix } from '../test/pipeline.js';
import { openTempStore, type TempStore } from '../test/store.js';

const redisUrl = process.env.REDIS_URL as string;
let temp: TempStore;
let redis: Redis;
let prefix: string;
let queue: Queue;
const running: Dispatcher[] = [];

beforeEach(() => {
  temp = openTempStore();
  redis = connectRedis(redisUrl);
  prefix = uniquePrefix();
  queue = new Queue(WELCOME_EMAIL_QUEUE, { connection: redis, prefix });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((dispatcher) => dispatcher.close()));
  await queue.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await temp.dispose();
});

function start(logger = captureLog().logger): Dispatcher {
  const dispatcher = startDispatcher({ store: temp.store, redis, prefix, logger });
  running.push(dispatcher);
  return dispatcher;
}

const waitingJobIds = async (): Promise<string[]> => (await queue.getJobs(['waiting'])).map((job) => job.id ?? '').sort();

describe('startDispatcher', () => {
  it('given requests before and after a restart, when dispatched, then each is one job with its deterministic id and the restart does not re-scan', async () => {
    const first = await registerUser(temp.store, 1);
    const dispatcher = start();
    await eventually(() => dispatcher.status().enqueuedJobs === 1, 5_000, 'the first job');
    await dispatcher.close();
    expect(await redis.get(`${prefix}:quern-dispatcher:checkpoint`)).toMatch(/^[0-9]+$/);

    const second = await registerUser(temp.store, 2);
    const restarted = start();
    await eventually(() => restarted.status().enqueuedJobs === 1, 5_000, 'the second job');

    expect(restarted.status()).toMatchObject({ running: true, rederivations: 0, lastError: undefined });
    expect(await waitingJobIds()).toEqual([`welcome-email-${first.userId}`, `welcome-email-${second.userId}`].sort());
    expect((await queue.getJob(`welcome-email-${second.userId}`))?.data).toEqual({ userId: second.userId, language: 'en' });
  });

  it('given the checkpoint deleted while jobs are still queued, when re-derived, then the same ids are not queued twice', async () => {
    await registerUser(temp.store, 1);
    await registerUser(temp.store, 2);
    const dispatcher = start();
    await eventually(() => dispatcher.status().enqueuedJobs === 2, 5_000, 'two jobs');
    await dispatcher.close();
    await redis.del(`${prefix}:quern-dispatcher:checkpoint`);

    const again = start();
    await eventually(() => again.status().enqueuedJobs === 2, 5_000, 'the re-derivation');
    expect(again.status().rederivations).toBe(1);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
  });

  it('given a malformed request between valid ones, when dispatched, then it is reported with its position and the others still become jobs', async () => {
    const log = captureLog();
    const dispatcher = start(log.logger);
    const before = await registerUser(temp.store, 1);
    const broken = await temp.store.append(userStream('broken'), [{ type: 'UserRegistered', data: { username: 'no_id' } }], 'no_stream');
    const after = await registerUser(temp.store, 2);

    await eventually(() => dispatcher.status().enqueuedJobs === 2, 5_000, 'the valid jobs');
    expect(await waitingJobIds()).toEqual([`welcome-email-${before.userId}`, `welcome-email-${after.userId}`].sort());
    expect(dispatcher.status().lastError).toContain(`position ${broken.position}`);
    expect(log.error.join('\n')).toContain(`Malformed UserRegistered at position ${broken.position}`);
    expect(dispatcher.status().running).toBe(true);
  });
});
