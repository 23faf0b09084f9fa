// Proves a password reset request becomes one mail with a link whose token verifies to that user and request, and that an expired request is not mailed.
import { systemClock } from '@quern/core';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '@quern/adapters/mail';
import { registerUser, requestPasswordReset } from '../../test/identity-events.js';
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
import { sendPasswordResetEmail } from './job.js';
import { verifyResetToken } from '@quern/core/identity';

const redisUrl = process.env.REDIS_URL as string;
const HOUR_MS = 3_600_000;
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

const linkIn = (text: string): URL => {
  const match = /(http:\/\/quern\.test:3000\/password-reset-verify\?t=\S+)/.exec(text);
  if (!match?.[1]) throw new Error('No reset link in the mail');
  return new URL(match[1]);
};

describe('password reset e-mail', () => {
  it('given a reset request, when dispatched, then one mail carries a link whose token verifies to the user and request, and the stream records it', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const user = await registerUser(temp.store, 1);
    const requestId = await requestPasswordReset(temp.store, user.userId, new Date(Date.now() + HOUR_MS));

    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'PasswordResetEmailSent')).length === 1,
      15_000,
      'PasswordResetEmailSent',
    );
    const reset = smtp.received.find((mail) => mail.parsed.subject === '[Sandbox] Reset your Quern password');
    expect(reset?.envelopeTo).toEqual([user.email]);
    const link = linkIn(reset?.parsed.text ?? '');
    expect(link.pathname).toBe('/password-reset-verify');
    expect(verifyResetToken(TEST_APP_SECRET, link.searchParams.get('t') ?? '')).toEqual({ userId: user.userId, requestId });
    expect(reset?.parsed.text).toMatch(/expires in (59|60) minutes/);
    const [sent] = await eventsOfType(temp.store, user.userId, 'PasswordResetEmailSent');
    expect(sent?.data).toMatchObject({ userId: user.userId, requestId, messageId: reset?.parsed.messageId });
  });

  it('given two reset requests, when dispatched, then each gets its own mail and its own completion', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const user = await registerUser(temp.store, 2, 'es');
    const first = await requestPasswordReset(temp.store, user.userId, new Date(Date.now() + HOUR_MS), 'es');
    const second = await requestPasswordReset(temp.store, user.userId, new Date(Date.now() + HOUR_MS), 'es');

    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'PasswordResetEmailSent')).length === 2,
      15_000,
      'two completions',
    );
    const resets = smtp.received.filter((mail) => mail.parsed.subject === '[Sandbox] Restablezca su contraseña de Quern');
    const requestIds = resets.map(
      (mail) => verifyResetToken(TEST_APP_SECRET, linkIn(mail.parsed.text).searchParams.get('t') ?? '')?.requestId,
    );
    expect(requestIds.sort()).toEqual([first, second].sort());
  });

  it('given a request that expired before the job ran, when the job runs, then no mail is sent and nothing is recorded', async () => {
    const log = captureLog();
    const deps = jobDeps(log.logger);
    const user = await registerUser(temp.store, 3);
    const requestId = await requestPasswordReset(temp.store, user.userId, new Date(Date.now() - 1_000));

    await expect(sendPasswordResetEmail({ userId: user.userId, requestId }, deps)).resolves.toEqual({ outcome: 'expired' });
    expect(smtp.received).toHaveLength(0);
    expect(await eventsOfType(temp.store, user.userId, 'PasswordResetEmailSent')).toHaveLength(0);
    expect(log.info.join('\n')).toContain(`password reset ${requestId} expired`);
  });

  it('given a request id the user stream does not hold, when the job runs, then it fails as unrecoverable', async () => {
    const deps = jobDeps();
    const user = await registerUser(temp.store, 4);
    await expect(sendPasswordResetEmail({ userId: user.userId, requestId: '00000000-0000-4000-8000-000000000001' }, deps)).rejects.toThrow(
      /no password reset request/,
    );
  });
});
