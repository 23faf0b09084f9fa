/**
 * The verification e-mail a signed-in owner asked for again (ADR 046); the sign-up's link goes
 * in the welcome mail. Idempotent through the log like the reset mail: the link is rebuilt from
 * the request event with the app secret, an expired request or a verified account is not mailed.
 */
import type { RecordedEvent } from '@quern/core';
import {
  createEmailVerificationToken,
  type EmailVerificationEmailSent,
  type EmailVerificationRequested,
  type UserRegistered,
} from '@quern/core/identity';
import { UnrecoverableError } from 'bullmq';
import { composeEmailVerificationEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { appendCompletionOnce, emailVerifiedIn, readUserStream } from '../user-stream.js';
import { emailVerificationEmailJobId, emailVerificationEmailPayload } from './payload.js';

const HOUR_MS = 3_600_000;

/** The link of a verification request, for the mail that carries it. */
export const emailVerificationUrl = (deps: Pick<EmailJobDeps, 'publicUrl' | 'appSecret'>, userId: string, requestId: string): string =>
  `${deps.publicUrl}/verify-email?t=${createEmailVerificationToken(deps.appSecret, userId, requestId)}`;

/** Whole hours a link has left (at least 1), as the mail states it. */
export const hoursLeft = (expiresAt: string, nowMs: number): number => Math.max(1, Math.floor((Date.parse(expiresAt) - nowMs) / HOUR_MS));

export async function sendEmailVerificationEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { userId, requestId, language } = parsePayload(emailVerificationEmailPayload, data);
  const isCompletion = (event: RecordedEvent): boolean => event.type === 'EmailVerificationEmailSent' && event.data.requestId === requestId;
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered (no UserRegistered in user-${userId})`);
  const request = events.find((event) => event.type === 'EmailVerificationRequested' && event.data.requestId === requestId);
  if (!request) throw new UnrecoverableError(`User ${userId} has no e-mail verification request ${requestId}`);
  const done = events.find(isCompletion);
  if (done) return { outcome: 'already-sent', messageId: String(done.data.messageId) };
  const { expiresAt } = request.data as EmailVerificationRequested['data'];
  const nowMs = deps.clock.now().getTime();
  if (emailVerifiedIn(events) || !(Date.parse(expiresAt) > nowMs)) {
    deps.logger.info(`[workers] e-mail verification ${requestId} is no longer needed or expired; not sending it`);
    return { outcome: 'expired' };
  }
  const user = registered.data as UserRegistered['data'];
  const mail = composeEmailVerificationEmail({
    company: companyOf(deps),
    language,
    verifyUrl: emailVerificationUrl(deps, userId, requestId),
    hoursValid: hoursLeft(expiresAt, nowMs),
  });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: emailVerificationEmailJobId(requestId) });
  const completion: EmailVerificationEmailSent = {
    type: 'EmailVerificationEmailSent',
    data: { userId, requestId, messageId: sent.messageId, sentAt: deps.clock.now().toISOString() },
  };
  await appendCompletionOnce(deps, userId, events, completion, isCompletion);
  return { outcome: 'sent', messageId: sent.messageId };
}
