/**
 * Whether the SMTP server at SMTP_URL answers and accepts Quern's login, without sending
 * anything (nodemailer's verify: connect, greet, STARTTLS when offered, AUTH). For `npm run doctor`.
 */
import nodemailer from 'nodemailer';

export async function verifySmtp(smtpUrl: string, timeoutMs = 10_000): Promise<void> {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
