// Proves a registration appended to the log becomes exactly one welcome mail received by a real SMTP server and one WelcomeEmailSent event, and that the job never sends for a user whose stream already records it.
import { systemClock } from '@quern/core';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '@quern/adapters/mail';
import { registerUser } from '../../test/identity-events.js';
import {
  captureLog,
  eventsOfType,
  eventually,
  startPipeline,
  TEST_APP_SECRET,
  TEST_PUBLIC_URL,
  type Pipeline,
} from '../../test/pipeline.js';
import type { TestSmtpServer } from '@quern/test-support/smtp';
import type { TempStore } from '../../test/store.js';
import { closeEmailWorld, openEmailWorld } from '../../test/email-world.js';
import { sendWelcomeEmail } from './job.js';

const redisUrl = process.env.REDIS_URL as string;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let pipeline: Pipeline | undefined;

/** The dependencies the workers give a job, for running one directly. */
const jobDeps = (logger = captureLog().logger) => ({
  store: temp.store,
  mailer,
  publicUrl: TEST_PUBLIC_URL,
  appSecret: TEST_APP_SECRET,
  clock: systemClock,
  logger,
});

beforeEach(async () => {
  ({ temp, smtp, mailer, redis, prefix } = await openEmailWorld(redisUrl));
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await closeEmailWorld({ temp, smtp, mailer, redis, prefix });
});

describe('welcome e-mail', () => {
  it('given a registration appended, when the dispatcher and workers run, then the SMTP server receives the welcome mail and the stream records it', async () => {
    const log = captureLog();
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: log.logger });
    const user = await registerUser(temp.store, 1);

    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length === 1,
      15_000,
      'WelcomeEmailSent',
    );

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.envelopeTo).toEqual([user.email]);
    expect(mail?.parsed.subject).toBe('[Sandbox] Welcome to Quern');
    expect(mail?.parsed.text).toContain(`Hello ${user.firstName},`);
    expect(mail?.parsed.text).toContain(`Open your wallet: ${TEST_PUBLIC_URL}/account`);
    const [sent] = await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent');
    expect(sent?.data).toMatchObject({ userId: user.userId, messageId: mail?.parsed.messageId });
    expect(pipeline.dispatcher.status()).toMatchObject({ running: true, lastError: undefined, enqueuedJobs: 1, rederivations: 1 });
    await eventually(() => pipeline?.workers.status().completedJobs === 1, 5_000, 'the job completes');
    expect(pipeline.workers.status()).toMatchObject({ running: true, lastError: undefined, failedJobs: 0 });
    expect(log.error).toEqual([]);
  });

  it('given a Spanish registration, when mailed, then the mail is in Spanish', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const user = await registerUser(temp.store, 2, 'es');
    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length === 1,
      15_000,
      'WelcomeEmailSent',
    );
    expect(smtp.received[0]?.parsed.subject).toBe('[Sandbox] Le damos la bienvenida a Quern');
    expect(smtp.received[0]?.parsed.text).toContain(`Hola, ${user.firstName}:`);
  });

  it('given WelcomeEmailSent already in the stream, when the job runs again (a stalled re-run), then nothing is sent or appended', async () => {
    const deps = jobDeps();
    const user = await registerUser(temp.store, 3);
    const first = await sendWelcomeEmail({ userId: user.userId }, deps);
    const again = await sendWelcomeEmail({ userId: user.userId, language: 'en' }, deps);

    expect(first.outcome).toBe('sent');
    expect(again).toEqual({ outcome: 'already-sent', messageId: first.outcome === 'sent' ? first.messageId : '' });
    expect(smtp.received).toHaveLength(1);
    expect(await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).toHaveLength(1);
  });

  it('given two runs of the same job at once, when both pass the check, then the stream still records one WelcomeEmailSent', async () => {
    const deps = jobDeps();
    const user = await registerUser(temp.store, 4);
    const outcomes = await Promise.all([sendWelcomeEmail({ userId: user.userId }, deps), sendWelcomeEmail({ userId: user.userId }, deps)]);

    expect(outcomes.every((o) => o.outcome === 'sent' || o.outcome === 'already-sent')).toBe(true);
    expect(await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).toHaveLength(1);
  });

  it('given a user stream that does not exist or a malformed payload, when the job runs, then it fails as unrecoverable', async () => {
    const deps = jobDeps();
    await expect(sendWelcomeEmail({ userId: '00000000-0000-4000-8000-000000000000' }, deps)).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sendWelcomeEmail({ userId: 'x:y' }, deps)).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sendWelcomeEmail({ userId: 'abc', extra: true }, deps)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(smtp.received).toHaveLength(0);
  });
});
