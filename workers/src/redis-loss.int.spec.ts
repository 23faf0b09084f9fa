// Proves that after FLUSHALL (Redis losing every queue and checkpoint) the open work is re-derived from the log: every user gets exactly one welcome mail and exactly one WelcomeEmailSent.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { createMailer, type Mailer } from '@quern/adapters/mail';
import { registerUser, type TestUser } from '../test/identity-events.js';
import { captureLog, connectRedis, eventsOfType, eventually, startPipeline, type Pipeline } from '../test/pipeline.js';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { openTempStore, type TempStore } from '../test/store.js';

const USERS = 30;
let server: RedisServer;
let redis: Redis;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = connectRedis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});
beforeEach(async () => {
  await redis.flushall();
  temp = openTempStore();
  smtp = await startTestSmtpServer();
  const smtpMailer = createMailer({ smtpUrl: smtp.url, dataDir: temp.dir, from: 'Quern <no-reply@quern.example>' });
  // Slowed down so that FLUSHALL lands while part of the work is done and part is still queued.
  mailer = {
    send: async (message) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return smtpMailer.send(message);
    },
    close: () => smtpMailer.close(),
  };
});
afterEach(async () => {
  await mailer.close();
  await smtp.stop();
  await temp.dispose();
});

async function welcomedCount(users: readonly TestUser[]): Promise<number> {
  const counts = await Promise.all(users.map(async (user) => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length));
  return counts.filter((count) => count > 0).length;
}

async function expectExactlyOnce(users: readonly TestUser[]): Promise<void> {
  const deliveries = smtp.countsByRecipient();
  for (const user of users) {
    expect(deliveries.get(user.email), user.email).toBe(1);
    expect(await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent'), user.userId).toHaveLength(1);
  }
  expect(smtp.received).toHaveLength(users.length);
}

const start = (checkpointCheckIntervalMs?: number): Pipeline =>
  startPipeline({
    store: temp.store,
    redis,
    redisUrl: server.url,
    mailer,
    prefix: 'bull',
    logger: captureLog().logger,
    concurrency: 2,
    checkpointCheckIntervalMs,
  });

describe('Redis loss', () => {
  it('given registrations partly mailed, when Redis is flushed and the dispatcher and workers restart, then every user gets exactly one welcome mail', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < USERS / 2; i += 1) users.push(await registerUser(temp.store, i));
    let pipeline = start();
    for (let i = USERS / 2; i < USERS; i += 1) users.push(await registerUser(temp.store, i));

    await eventually(async () => (await welcomedCount(users)) >= 5, 15_000, 'some mails are sent');
    await redis.flushall();
    await pipeline.stop();
    // Jobs running at the flush finished during stop(); what is welcomed now is final.
    const welcomedBeforeRestart = await welcomedCount(users);
    expect(welcomedBeforeRestart).toBeLessThan(USERS);

    pipeline = start();
    try {
      await eventually(async () => (await welcomedCount(users)) === USERS, 30_000, 'every user is welcomed');
      // Exactly the open work was enqueued: the requests without a completion, no more.
      expect(pipeline.dispatcher.status().enqueuedJobs).toBe(USERS - welcomedBeforeRestart);
      // Give a wrongly re-enqueued job the time to run and show up as a second mail.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expectExactlyOnce(users);
      expect(pipeline.dispatcher.status().rederivations).toBe(1);
    } finally {
      await pipeline.stop();
    }
  });

  it('given a running dispatcher, when Redis is flushed while the log is quiet, then it notices, re-derives the open work and every user gets exactly one mail', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < USERS; i += 1) users.push(await registerUser(temp.store, i));
    const pipeline = start(50);
    try {
      await eventually(async () => (await welcomedCount(users)) >= 5, 15_000, 'some mails are sent');
      await redis.flushall();
      expect(await welcomedCount(users)).toBeLessThan(USERS);
      await eventually(async () => (await welcomedCount(users)) === USERS, 30_000, 'every user is welcomed');
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expectExactlyOnce(users);
      expect(pipeline.dispatcher.status().rederivations).toBe(2);
    } finally {
      await pipeline.stop();
    }
  });
});
