// Proves a profile password change becomes one notice mail (in the user's language, with the name as
// edited since) and one completion, that a change by reset link asks for no notice, and that a re-run
// sends nothing more.
import { randomUUID } from 'node:crypto';
import { systemClock, type EventStore } from '@quern/core';
import { userStream } from '@quern/core/identity';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '@quern/adapters/mail';
import type { TestSmtpServer } from '@quern/test-support/smtp';
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
import type { TempStore } from '../../test/store.js';
import { closeEmailWorld, openEmailWorld } from '../../test/email-world.js';
import { sendPasswordChangedEmail } from './job.js';

const redisUrl = process.env.REDIS_URL as string;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let pipeline: Pipeline | undefined;

beforeEach(async () => {
  ({ temp, smtp, mailer, redis, prefix } = await openEmailWorld(redisUrl));
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await closeEmailWorld({ temp, smtp, mailer, redis, prefix });
});

async function changePassword(store: EventStore, userId: string, via: 'profile' | 'reset', language?: 'en' | 'es'): Promise<string> {
  const changeId = randomUUID();
  await store.append(
    userStream(userId),
    [
      {
        type: 'PasswordChanged',
        data: {
          userId,
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$bmV3',
          changedAt: '2026-11-24T10:15:00.000Z',
          via,
          ...(via === 'profile' ? { changeId } : { requestId: changeId }),
        },
        metadata: language ? { language } : {},
      },
    ],
    'any',
  );
  return changeId;
}

describe('password changed e-mail', () => {
  it('given a profile password change after a name edit, when dispatched, then one Spanish notice greets the new name and the stream records it', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const user = await registerUser(temp.store, 1, 'es');
    await temp.store.append(
      userStream(user.userId),
      [
        {
          type: 'UserNameChanged',
          data: { userId: user.userId, firstName: 'Grace', lastName: 'Hopper', changedAt: new Date().toISOString() },
        },
      ],
      'any',
    );
    const changeId = await changePassword(temp.store, user.userId, 'profile', 'es');

    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'PasswordChangedEmailSent')).length === 1,
      15_000,
      'PasswordChangedEmailSent',
    );
    const notice = smtp.received.find((mail) => mail.parsed.subject === '[Sandbox] Se cambió su contraseña de Quern');
    expect(notice?.envelopeTo).toEqual([user.email]);
    expect(notice?.parsed.text).toContain('Hola, Grace:');
    expect(notice?.parsed.text).toContain(`${TEST_PUBLIC_URL}/password-reset`);
    expect(notice?.parsed.text).toMatch(/24 de noviembre de 2026.*10:15.*\(UTC\)/);
    const [sent] = await eventsOfType(temp.store, user.userId, 'PasswordChangedEmailSent');
    expect(sent?.data).toMatchObject({ userId: user.userId, changeId, messageId: notice?.parsed.messageId });

    const again = await sendPasswordChangedEmail(
      { userId: user.userId, changeId },
      {
        store: temp.store,
        mailer,
        publicUrl: TEST_PUBLIC_URL,
        appSecret: TEST_APP_SECRET,
        clock: systemClock,
        logger: captureLog().logger,
      },
    );
    expect(again).toEqual({ outcome: 'already-sent', messageId: notice?.parsed.messageId });
    expect(smtp.received.filter((mail) => mail.parsed.subject === '[Sandbox] Se cambió su contraseña de Quern')).toHaveLength(1);
  });

  it('given a change by reset link, when dispatched, then no notice is asked for', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const user = await registerUser(temp.store, 2);
    await changePassword(temp.store, user.userId, 'reset');
    // The welcome mail proves the dispatcher went past the change.
    await eventually(async () => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length === 1, 15_000, 'welcome');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(['[Sandbox] Welcome to Quern']);
    expect(await eventsOfType(temp.store, user.userId, 'PasswordChangedEmailSent')).toHaveLength(0);
  });

  it('given a change id the user stream does not hold, when the job runs, then it fails as unrecoverable', async () => {
    const user = await registerUser(temp.store, 3);
    const deps = {
      store: temp.store,
      mailer,
      publicUrl: TEST_PUBLIC_URL,
      appSecret: TEST_APP_SECRET,
      clock: systemClock,
      logger: captureLog().logger,
    };
    await expect(sendPasswordChangedEmail({ userId: user.userId, changeId: randomUUID() }, deps)).rejects.toThrow(/no password change/);
  });
});
