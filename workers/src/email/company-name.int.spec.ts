// Proves COMPANY_NAME reaches the e-mails at run time: workers started with a company name (as
// api/src/main.ts starts them with config.COMPANY_NAME) send a welcome mail signed with it, while
// the subject keeps the product's name, behind the sandbox's tag (the default mode; ADR 050)
// (the HTML's escaping: compose.unit.spec.ts).
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

describe('COMPANY_NAME in the e-mails', () => {
  it('given workers started with a company name, when a user registers, then the welcome mail is signed with it', async () => {
    const { logger } = captureLog();
    dispatcher = startDispatcher({ store: temp.store, redis, prefix, logger, checkpointCheckIntervalMs: 60_000 });
    workers = startWorkers({
      store: temp.store,
      connection: redisUrl,
      mailer,
      appSecret: TEST_APP_SECRET,
      publicUrl: TEST_PUBLIC_URL,
      companyName: 'Acme Ltd <&>',
      prefix,
      logger,
    });
    const user = await registerUser(temp.store, 1);
    await eventually(
      async () => (await eventsOfType(temp.store, user.userId, 'WelcomeEmailSent')).length === 1,
      15_000,
      'WelcomeEmailSent',
    );

    const mail = smtp.received[0];
    expect(mail?.parsed.subject).toBe('[Sandbox] Welcome to Quern');
    expect(mail?.parsed.text).toContain('The Acme Ltd <&> team');
    expect(mail?.parsed.text).toContain('at Acme Ltd <&>, the millix (MLX) wallet.');
    expect(mail?.parsed.text).not.toContain('The Quern team');
  });
});
