/**
 * The password reset e-mail job. Idempotent through the log like the welcome e-mail (see there);
 * the link is rebuilt from the request event with the app secret, so nothing secret is stored in
 * Redis or in the log. A request whose link has expired is not mailed.
 */
import type { RecordedEvent } from '@quern/core';
import type { PasswordResetEmailSent, PasswordResetRequested, UserRegistered } from '@quern/core/identity';
import { UnrecoverableError } from 'bullmq';
import { composePasswordResetEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { appendCompletionOnce, readUserStream } from '../user-stream.js';
import { passwordResetEmailJobId, passwordResetEmailPayload } from './payload.js';
import { createResetToken } from '@quern/core/identity';

const MINUTE_MS = 60_000;

export async function sendPasswordResetEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { userId, requestId, language } = parsePayload(passwordResetEmailPayload, data);
  const isCompletion = (event: RecordedEvent): boolean => event.type === 'PasswordResetEmailSent' && event.data.requestId === requestId;
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered (no UserRegistered in user-${userId})`);
  const request = events.find((event) => event.type === 'PasswordResetRequested' && event.data.requestId === requestId);
  if (!request) throw new UnrecoverableError(`User ${userId} has no password reset request ${requestId}`);
  const done = events.find(isCompletion);
  if (done) return { outcome: 'already-sent', messageId: String(done.data.messageId) };

  const expiresAtMs = Date.parse((request.data as PasswordResetRequested['data']).expiresAt);
  const nowMs = deps.clock.now().getTime();
  if (!(expiresAtMs > nowMs)) {
    deps.logger.info(`[workers] password reset ${requestId} expired before its e-mail could be sent; not sending it`);
    return { outcome: 'expired' };
  }
  const user = registered.data as UserRegistered['data'];
  const resetUrl = `${deps.publicUrl}/password-reset-verify?t=${createResetToken(deps.appSecret, userId, requestId)}`;
  const minutesValid = Math.max(1, Math.floor((expiresAtMs - nowMs) / MINUTE_MS));
  const mail = composePasswordResetEmail({ company: companyOf(deps), language, firstName: user.firstName, resetUrl, minutesValid });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: passwordResetEmailJobId(requestId) });
  const completion: PasswordResetEmailSent = {
    type: 'PasswordResetEmailSent',
    data: { userId, requestId, messageId: sent.messageId, sentAt: deps.clock.now().toISOString() },
  };
  await appendCompletionOnce(deps, userId, events, completion, isCompletion);
  return { outcome: 'sent', messageId: sent.messageId };
}
