// Proves a SupportMessageSubmitted appended to the log becomes, through the dispatcher and the workers, one mail to the support mailbox (Reply-To the sender, the text quoted) and one acknowledgement, quoting nothing, to the sender's account at its proven address only, in their language, received by a real SMTP server, and one SupportMessageSent; that a re-run or two overlapping runs record it once; and that an unreadable message fails as unrecoverable without mailing anyone.
import { randomUUID } from 'node:crypto';
import { systemClock } from '@quern/core';
import { submitSupportMessage, supportStream } from '@quern/core/contact';
import type { Mailer } from '@quern/adapters/mail';
import { decodeWords } from '@quern/test-support/eml';
import type { TestSmtpServer } from '@quern/test-support/smtp';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLog, eventually, startPipeline, TEST_APP_SECRET, TEST_PUBLIC_URL, type Pipeline } from '../../test/pipeline.js';
import type { TempStore } from '../../test/store.js';
import { closeEmailWorld, openEmailWorld } from '../../test/email-world.js';
import { registerUser, type TestUser } from '../../test/identity-events.js';
import { sendSupportEmail } from './job.js';

const redisUrl = process.env.REDIS_URL as string;
const SUPPORT = 'support@quern.example';
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let pipeline: Pipeline | undefined;
/** The signed-in sender's account, its address proven. */
let sender: TestUser;

const jobDeps = () => ({
  store: temp.store,
  mailer,
  publicUrl: TEST_PUBLIC_URL,
  appSecret: TEST_APP_SECRET,
  clock: systemClock,
  logger: captureLog().logger,
  supportEmail: SUPPORT,
});

const submit = (overrides: Partial<Parameters<typeof submitSupportMessage>[1]> = {}) =>
  submitSupportMessage(
    { store: temp.store, clock: systemClock, newId: randomUUID },
    {
      form: 'support',
      userId: sender.userId,
      fromEmail: 'ana@example.com',
      fromName: 'Ana Díaz',
      subject: 'Stuck send',
      text: 'My send is pending <b>since</b> an hour.',
      language: 'en',
      ...overrides,
    },
  );

const sentEvents = async (messageId: string) =>
  (await temp.store.readStream(supportStream(messageId))).filter((event) => event.type === 'SupportMessageSent');

beforeEach(async () => {
  ({ temp, smtp, mailer, redis, prefix } = await openEmailWorld(redisUrl));
  sender = await registerUser(temp.store, 1, 'en', { email: 'ana@example.com' });
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await closeEmailWorld({ temp, smtp, mailer, redis, prefix });
});

describe('support e-mail', () => {
  it('given a message appended, when the pipeline runs, then support gets it reply-to the sender and the sender an acknowledgement', async () => {
    pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
    const { messageId } = await submit();
    await eventually(async () => (await sentEvents(messageId)).length === 1, 15_000, 'SupportMessageSent');

    // Beside the sender's own welcome mail (the pipeline sends it for the registration).
    expect(smtp.received.filter((mail) => mail.parsed.subject !== '[Sandbox] Welcome to Quern')).toHaveLength(2);
    const toSupport = smtp.received.find((mail) => mail.envelopeTo.includes(SUPPORT));
    expect(toSupport?.parsed.subject).toBe('[Sandbox] [Support] Stuck send');
    // The name is non-ASCII, so it travels as an encoded word; the header is one line either way.
    expect(toSupport?.parsed.headers.get('reply-to')).toMatch(/^=\?UTF-8\?[QB]\?.+\?= <ana@example\.com>$/);
    expect(decodeWords(toSupport?.parsed.headers.get('reply-to') ?? '')).toBe('Ana Díaz <ana@example.com>');
    expect(toSupport?.parsed.text).toContain(`A message from Ana Díaz <ana@example.com> (support form, user ${sender.userId}):`);
    expect(toSupport?.parsed.text).toContain('My send is pending <b>since</b> an hour.');
    const ack = smtp.received.find(
      (mail) => mail.envelopeTo.includes('ana@example.com') && mail.parsed.subject !== '[Sandbox] Welcome to Quern',
    );
    expect(ack?.parsed.subject).toBe('[Sandbox] We received your message');
    expect(ack?.parsed.text).toContain('Hello Ana Díaz,');
    const [sent] = await sentEvents(messageId);
    expect(sent?.data).toMatchObject({
      messageId,
      supportMessageId: toSupport?.parsed.messageId,
      acknowledgementMessageId: ack?.parsed.messageId,
    });
  });

  it('given a Spanish sender, then the acknowledgement is in Spanish and the support mail in English', async () => {
    const { messageId } = await submit({ language: 'es' });
    await sendSupportEmail({ messageId }, jobDeps());
    const ack = smtp.received.find((mail) => mail.envelopeTo.includes('ana@example.com'));
    // The job itself, not through startWorkers: its subjects as composed, without the sandbox's tag.
    expect(ack?.parsed.subject).toBe('Recibimos su mensaje');
    expect(smtp.received.find((mail) => mail.envelopeTo.includes(SUPPORT))?.parsed.subject).toBe('[Support] Stuck send');
  });

  it("given a contact message naming a stranger's address, then the stranger gets nothing and the acknowledgement goes to the sender's proven address, quoting neither subject nor text", async () => {
    const { messageId } = await submit({
      form: 'contact',
      fromEmail: 'victim@example.org',
      subject: 'Your Quern account is locked',
      text: 'Unlock it at https://evil.example/unlock now.',
    });
    await expect(sendSupportEmail({ messageId }, jobDeps())).resolves.toMatchObject({ outcome: 'sent' });
    expect(smtp.received.filter((mail) => mail.envelopeTo.includes('victim@example.org'))).toHaveLength(0);
    const ack = smtp.received.find((mail) => mail.envelopeTo.includes('ana@example.com'));
    expect(ack?.parsed.subject).toBe('We received your message');
    expect(ack?.parsed.text).not.toContain('locked');
    expect(ack?.parsed.text).not.toContain('evil.example');
    // The support mailbox still reads the message, reply-to the address the form named.
    const toSupport = smtp.received.find((mail) => mail.envelopeTo.includes(SUPPORT));
    expect(toSupport?.parsed.text).toContain('https://evil.example/unlock');
  });

  it('given a sender whose account never proved its address, then support gets the message and nobody an acknowledgement', async () => {
    const unproven = await registerUser(temp.store, 2, 'en', { verified: false });
    const { messageId } = await submit({ userId: unproven.userId, fromEmail: unproven.email });
    await sendSupportEmail({ messageId }, jobDeps());
    expect(smtp.received.flatMap((mail) => mail.envelopeTo)).toEqual([SUPPORT]);
    const [sent] = await sentEvents(messageId);
    expect(sent?.data.acknowledgementMessageId).toBeUndefined();
  });

  it('given SupportMessageSent already recorded, when the job runs again, then nothing is sent or appended', async () => {
    const { messageId } = await submit();
    const first = await sendSupportEmail({ messageId }, jobDeps());
    const again = await sendSupportEmail({ messageId }, jobDeps());
    expect(first.outcome).toBe('sent');
    expect(again).toEqual({ outcome: 'already-sent', messageId: first.outcome === 'sent' ? first.messageId : '' });
    expect(smtp.received).toHaveLength(2);
    expect(await sentEvents(messageId)).toHaveLength(1);
  });

  it('given two runs at once, then the stream records one SupportMessageSent', async () => {
    const { messageId } = await submit();
    const outcomes = await Promise.all([sendSupportEmail({ messageId }, jobDeps()), sendSupportEmail({ messageId }, jobDeps())]);
    expect(outcomes.every((o) => o.outcome === 'sent' || o.outcome === 'already-sent')).toBe(true);
    expect(await sentEvents(messageId)).toHaveLength(1);
  });

  it('given a missing message, a forged one with a line break in the name, or a malformed payload, then the job fails as unrecoverable and mails no one', async () => {
    const missing = randomUUID();
    await expect(sendSupportEmail({ messageId: missing }, jobDeps())).rejects.toBeInstanceOf(UnrecoverableError);
    const forged = randomUUID();
    await temp.store.append(
      supportStream(forged),
      [
        {
          type: 'SupportMessageSubmitted',
          data: {
            messageId: forged,
            form: 'contact',
            userId: 'u',
            fromEmail: 'ana@example.com',
            fromName: 'Ana\r\nBcc: victim@example.com',
            subject: 'Hi',
            text: 'x',
            language: 'en',
            submittedAt: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
    );
    await expect(sendSupportEmail({ messageId: forged }, jobDeps())).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sendSupportEmail({ messageId: 'x' }, jobDeps())).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(sendSupportEmail({ messageId: missing, extra: 1 }, jobDeps())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(smtp.received).toHaveLength(0);
  });

  it('given a subject with a line break that reached the job, then the submit refuses to record it', async () => {
    await expect(submit({ subject: 'Hi\r\nBcc: victim@example.com' })).rejects.toThrow(/schema/);
  });
});
