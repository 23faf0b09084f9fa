/**
 * Test support: the dispatcher and the workers wired as the app wires them, against a given Redis
 * and SMTP server, under a key prefix of their own so tests can share a Redis.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, RecordedEvent } from '@quern/core';
import { userStream } from '@quern/core/identity';
import { Redis } from 'ioredis';
import { startDispatcher, type Dispatcher } from '../src/dispatcher.js';
import type { Mailer } from '@quern/adapters/mail';
import type { Clock, Logger } from '@quern/core';
import type { PlanSubscriptions } from '../src/plan-price-notice/job.js';
import { startWorkers, type WebhookWorkerOptions, type WorkersHandle } from '../src/workers.js';

export const TEST_APP_SECRET = 'test-app-secret-with-enough-characters';
export const TEST_PUBLIC_URL = 'http://quern.test:3000';

export { captureLog, type CapturedLog } from '@quern/test-support/log';

export interface Pipeline {
  dispatcher: Dispatcher;
  workers: WorkersHandle;
  stop(): Promise<void>;
}

export function startPipeline(options: {
  store: EventStore;
  redis: Redis;
  redisUrl: string;
  mailer: Mailer;
  prefix: string;
  logger: Logger;
  concurrency?: number;
  checkpointCheckIntervalMs?: number;
  redisLossGraceMs?: number;
  /** The workers' clock (billing tests move it); the system clock unless given. */
  clock?: Clock;
  planSubscriptions?: PlanSubscriptions;
  webhooks?: WebhookWorkerOptions;
}): Pipeline {
  const dispatcher = startDispatcher({
    store: options.store,
    redis: options.redis,
    prefix: options.prefix,
    logger: options.logger,
    checkpointCheckIntervalMs: options.checkpointCheckIntervalMs ?? 60_000,
    redisLossGraceMs: options.redisLossGraceMs ?? 1_000,
  });
  const workers = startWorkers({
    store: options.store,
    connection: options.redisUrl,
    mailer: options.mailer,
    appSecret: TEST_APP_SECRET,
    publicUrl: TEST_PUBLIC_URL,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 5,
    logger: options.logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.planSubscriptions ? { planSubscriptions: options.planSubscriptions } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  return {
    dispatcher,
    workers,
    async stop() {
      await dispatcher.close();
      await workers.close();
    },
  };
}

export const uniquePrefix = (): string => `test-${randomUUID().slice(0, 8)}`;

/** Deletes a test's BullMQ keys from a shared Redis. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1_000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

export const connectRedis = (url: string): Redis => new Redis(url, { maxRetriesPerRequest: null });

export async function eventsOfType(store: EventStore, userId: string, type: string): Promise<RecordedEvent[]> {
  return (await store.readStream(userStream(userId))).filter((event) => event.type === type);
}

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
