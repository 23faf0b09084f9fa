/**
 * The mailer: SMTP through a pooled nodemailer transport when SMTP_URL is set (one connection
 * reused for many mails instead of a handshake per mail), otherwise .eml files under
 * DATA_DIR/outbox plus one log line, so a developer sees every mail without any server.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@quern/core';
import { processLogger } from '../runtime/index.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The local part of the Message-ID (letters, digits, '.', '-'). Jobs pass a deterministic key,
   * so a mail sent twice (at-least-once delivery) carries the same Message-ID, which lets mail
   * clients collapse it, and overwrites the same outbox file. A random one when absent.
   */
  messageKey?: string;
  /** Where replies go (a support message is answered to the user who sent it); nodemailer builds the header. */
  replyTo?: { name: string; address: string };
}

export interface Mailer {
  send(message: EmailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

export interface CreateMailerOptions {
  /** smtp://user:pass@host:port or smtps://...; unset writes .eml files instead. */
  smtpUrl?: string;
  dataDir: string;
  /** From header, e.g. `Quern <no-reply@quern.example>`. */
  from: string;
  logger?: Logger;
}

const MESSAGE_KEY_PATTERN = /^[A-Za-z0-9.-]{1,128}$/;
const SMTP_LIMITS = { maxConnections: 3, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The domain of the From address, for Message-IDs: `Quern <no-reply@quern.example>` gives quern.example. */
export function mailDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'quern.localhost';
}

export function createMailer(options: CreateMailerOptions): Mailer {
  const domain = mailDomain(options.from);
  const idFor = (message: EmailMessage) => {
    const key = message.messageKey ?? randomUUID();
    if (!MESSAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid Message-ID key ${JSON.stringify(key.slice(0, 80))}`);
    return `<${key}@${domain}>`;
  };
  return options.smtpUrl
    ? createSmtpMailer(options.smtpUrl, options.from, idFor)
    : createOutboxMailer(join(options.dataDir, 'outbox'), options.from, idFor, options.logger ?? processLogger);
}

type IdFor = (message: EmailMessage) => string;

function createSmtpMailer(smtpUrl: string, from: string, idFor: IdFor): Mailer {
  const transport = nodemailer.createTransport({ pool: true, url: smtpUrl, ...SMTP_LIMITS }, { from });
  return {
    async send(message) {
      const { messageKey: _key, ...fields } = message;
      const info = await transport.sendMail({ ...fields, messageId: idFor(message) });
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}

/** A Message-ID as a file name: only the characters ids are made of, and bounded. */
export const outboxFileName = (messageId: string): string =>
  `${messageId
    .replace(/^<|>$/g, '')
    .replace(/[^A-Za-z0-9._@-]/g, '_')
    .slice(0, 200)}.eml`;

function createOutboxMailer(outboxDir: string, from: string, idFor: IdFor, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  let ready: Promise<unknown> | undefined;
  return {
    async send(message) {
      ready ??= mkdir(outboxDir, { recursive: true });
      await ready;
      const { messageKey: _key, ...fields } = message;
      const info = await transport.sendMail({ ...fields, messageId: idFor(message) });
      const file = join(outboxDir, outboxFileName(info.messageId));
      // Write then rename, so a reader never sees half a message.
      const partial = `${file}.${randomUUID()}.partial`;
      await writeFile(partial, info.message as Buffer);
      await rename(partial, file);
      // The file names the message; its recipient and subject stay out of the log (personal data).
      logger.info(`[mail] written to the outbox: ${file}`);
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}
