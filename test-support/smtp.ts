/**
 * Test support: a real SMTP server on loopback (random port, no auth, no TLS) that keeps every
 * message it accepts, so tests check what a mail server actually received.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseEml, type ParsedEml } from './eml.js';

export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedEml;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Counts deliveries per recipient address. */
  countsByRecipient(): Map<string, number>;
  stop(): Promise<void>;
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // Bounded: a runaway test cannot fill memory with one message.
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          parsed: parseEml(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    countsByRecipient() {
      const counts = new Map<string, number>();
      for (const mail of received) for (const to of mail.envelopeTo) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
