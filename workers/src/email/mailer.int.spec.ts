// Proves the mailer writes a parsable .eml per message to DATA_DIR/outbox without SMTP, and delivers through a real SMTP server when SMTP_URL is set.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEml } from '@quern/test-support/eml';
import { captureLog } from '@quern/test-support/log';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { composeWelcomeEmail } from './compose.js';
import { createMailer } from '@quern/adapters/mail';

const from = 'Quern <no-reply@quern.example>';
let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'quern-mailer-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('createMailer without SMTP (outbox)', () => {
  it('given a message, when sent, then DATA_DIR/outbox holds one parsable .eml and one log line names it', async () => {
    const log = captureLog();
    const mailer = createMailer({ dataDir, from, logger: log.logger });
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });

    const { messageId } = await mailer.send({ to: 'ada@example.com', ...mail, messageKey: 'welcome-email-u1' });
    await mailer.close();

    expect(messageId).toBe('<welcome-email-u1@quern.example>');
    const file = join(dataDir, 'outbox', 'welcome-email-u1@quern.example.eml');
    expect(readdirSync(join(dataDir, 'outbox'))).toEqual(['welcome-email-u1@quern.example.eml']);
    const parsed = parseEml(readFileSync(file, 'utf8'));
    expect(parsed).toMatchObject({ to: 'ada@example.com', subject: 'Welcome to Quern', messageId: '<welcome-email-u1@quern.example>' });
    expect(parsed.headers.get('from')).toBe('Quern <no-reply@quern.example>');
    expect(parsed.text).toContain('Hello Ada,');
    expect(parsed.text).toContain('Open your wallet: https://quern.example/account');
    // The line names the file, never the recipient or the subject (ADR 052: no personal data in logs).
    expect(log.info).toEqual([`[mail] written to the outbox: ${file}`]);
  });

  it('given a Spanish message sent twice with the same key, when read back, then one file holds it and the accents survive', async () => {
    const mailer = createMailer({ dataDir, from, logger: captureLog().logger });
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'es',
      firstName: 'Íñigo',
      username: 'inigo',
      walletUrl: 'https://quern.example/account',
    });
    await mailer.send({ to: 'inigo@example.com', ...mail, messageKey: 'welcome-email-u2' });
    await mailer.send({ to: 'inigo@example.com', ...mail, messageKey: 'welcome-email-u2' });

    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toEqual(['welcome-email-u2@quern.example.eml']);
    const parsed = parseEml(readFileSync(join(dataDir, 'outbox', files[0] as string), 'utf8'));
    expect(parsed.subject).toBe('Le damos la bienvenida a Quern');
    expect(parsed.text).toContain('Hola, Íñigo:');
    expect(parsed.text).toContain('Su cuenta de Quern está lista.');
  });

  it('given an invalid message key, when sent, then it is refused and nothing is written', async () => {
    const mailer = createMailer({ dataDir, from, logger: captureLog().logger });
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>', messageKey: '../escape' })).rejects.toThrow(
      /Invalid Message-ID key/,
    );
  });
});

describe('createMailer with SMTP', () => {
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    await smtp.stop();
  });

  it('given an SMTP URL, when a message is sent, then the server receives it for the recipient with the subject and Message-ID', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, dataDir, from });
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });
    const { messageId } = await mailer.send({ to: 'ada@example.com', ...mail, messageKey: 'welcome-email-u3' });
    await mailer.close();

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.envelopeTo).toEqual(['ada@example.com']);
    expect(smtp.received[0]?.parsed).toMatchObject({ subject: 'Welcome to Quern', messageId });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('given an SMTP server that is not there, when a message is sent, then the send fails (so the job retries)', async () => {
    await smtp.stop();
    const mailer = createMailer({ smtpUrl: smtp.url, dataDir, from });
    await expect(mailer.send({ to: 'ada@example.com', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow();
    await mailer.close();
    smtp = await startTestSmtpServer();
  });
});
