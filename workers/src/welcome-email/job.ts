/**
 * The welcome e-mail job. Idempotent through the log: if WelcomeEmailSent is already in the
 * user's stream (a stalled re-run, or a job re-derived after a Redis loss) it sends nothing.
 * Between sending and recording a crash can still cause a second mail: delivery is at least once,
 * with the same Message-ID both times.
 */
import type { RecordedEvent } from '@quern/core';
import type { EmailVerificationRequested, UserRegistered, WelcomeEmailSent } from '@quern/core/identity';
import { UnrecoverableError } from 'bullmq';
import { composeWelcomeEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { emailVerificationUrl, hoursLeft } from '../email-verification-email/job.js';
import { appendCompletionOnce, emailVerifiedIn, readUserStream } from '../user-stream.js';
import { welcomeEmailJobId, welcomeEmailPayload } from './payload.js';

const isCompletion = (event: RecordedEvent): boolean => event.type === 'WelcomeEmailSent';

export async function sendWelcomeEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { userId, language } = parsePayload(welcomeEmailPayload, data);
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered (no UserRegistered in user-${userId})`);
  const done = events.find(isCompletion);
  if (done) return { outcome: 'already-sent', messageId: String(done.data.messageId) };

  const user = registered.data as UserRegistered['data'];
  // The sign-up's verification link rides in this mail (ADR 046) while it is still of use.
  const request = events.find((event) => event.type === 'EmailVerificationRequested' && event.data.via === 'registration');
  const requestData = request?.data as EmailVerificationRequested['data'] | undefined;
  const nowMs = deps.clock.now().getTime();
  const verify =
    requestData && !emailVerifiedIn(events) && Date.parse(requestData.expiresAt) > nowMs
      ? { url: emailVerificationUrl(deps, userId, requestData.requestId), hoursValid: hoursLeft(requestData.expiresAt, nowMs) }
      : undefined;
  const mail = composeWelcomeEmail({
    company: companyOf(deps),
    language,
    firstName: user.firstName,
    username: user.username,
    walletUrl: `${deps.publicUrl}/account`,
    ...(verify ? { verify } : {}),
  });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: welcomeEmailJobId(userId) });
  const completion: WelcomeEmailSent = {
    type: 'WelcomeEmailSent',
    data: { userId, messageId: sent.messageId, sentAt: deps.clock.now().toISOString() },
  };
  await appendCompletionOnce(deps, userId, events, completion, isCompletion);
  return { outcome: 'sent', messageId: sent.messageId };
}
