// Proves the mode in e-mail subjects (ADR 050) through a real SMTP server: workers started in a
// sandbox (as api/src/main.ts starts them with config.QUERN_MODE) send the welcome mail with
// '[Sandbox] ' before its i18n subject, in English and in Spanish; started live, with the subject
// as written.
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '@quern/adapters/mail';
import type { TestSmtpServer } from '@quern/test-support/smtp';
import { startDispatcher, type Dispatcher } from '../dispatcher.js';
import { closeEmailWorld, openEmailWorld } from '../../test/email-world.js';
import { registerUser } from '../../test/identity-events.js';
import { captureLog, eventsOfType, eventually, TEST_APP_SECRET, TEST_PUBLIC_URL } from '../../test/pipeline.js';
import type { TempStore } from '../../test/store.js';
import { startWorkers, type WorkersHandle } from '../workers.js';

const redisUrl = process.env.REDIS_URL as string;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let dispatcher: Dispatcher | undefined;
let workers: WorkersHandle | undefined;

beforeEach(async () => {
  ({ temp, smtp, mailer, redis, prefix } = await openEmailWorld(redisUrl));
});
afterEach(async () => {
  await dispatcher?.close();
  await workers?.close();
  dispatcher = undefined;
  workers = undefined;
  await closeEmailWorld({ temp, smtp, mailer, redis, prefix });
});

async function welcomeSubject(mode: 'sandbox' | 'live', n: number, language: 'en' | 'es'): Promise<string | undefined> {
  const { logger } = captureLog();
  dispatcher = startDispatcher({ store: temp.store, redis, prefix, logger, checkpointCheckIntervalMs: 60_000 });
  workers = startWorkers({
    store: temp.store,
    connection: redisUrl,
    mailer,
    appSecret: TEST_APP_SECRET,
    publicUrl: TEST_PUBLIC_URL,
    mode,
    prefix,
    logger,
  });
  const user = await registerUser(temp.store, n, language);
  await eventually(async () => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length === 1, 15_000, 'WelcomeEmailSent');
  return smtp.received[0]?.parsed.subject;
}

describe('the mode in e-mail subjects', () => {
  it('given a sandbox, when a user registers, then the subject is tagged [Sandbox], in English', async () => {
    expect(await welcomeSubject('sandbox', 1, 'en')).toBe('[Sandbox] Welcome to Quern');
  });

  it('given a sandbox, when a Spanish user registers, then the Spanish subject is tagged too', async () => {
    expect(await welcomeSubject('sandbox', 2, 'es')).toBe('[Sandbox] Le damos la bienvenida a Quern');
  });

  it('given live, when a user registers, then the subject is as written', async () => {
    expect(await welcomeSubject('live', 3, 'en')).toBe('Welcome to Quern');
  });
});
