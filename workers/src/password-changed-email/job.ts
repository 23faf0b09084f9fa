/**
 * The notice e-mail after a password change from the profile: tells the account's address when
 * it happened and how to take the account back (a reset link request) if it was not the owner.
 * Idempotent through the log like the welcome e-mail (see there). The greeting uses the name as
 * it is now, so a name edited earlier is the one the mail shows.
 */
import type { RecordedEvent } from '@quern/core';
import type { PasswordChanged, PasswordChangedEmailSent, UserNameChanged, UserRegistered } from '@quern/core/identity';
import { UnrecoverableError } from 'bullmq';
import { composePasswordChangedEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { appendCompletionOnce, emailVerifiedIn, readUserStream } from '../user-stream.js';
import { passwordChangedEmailJobId, passwordChangedEmailPayload } from './payload.js';

export async function sendPasswordChangedEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { userId, changeId, language } = parsePayload(passwordChangedEmailPayload, data);
  const isCompletion = (event: RecordedEvent): boolean => event.type === 'PasswordChangedEmailSent' && event.data.changeId === changeId;
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered (no UserRegistered in user-${userId})`);
  const change = events.find((event) => event.type === 'PasswordChanged' && event.data.changeId === changeId);
  if (!change) throw new UnrecoverableError(`User ${userId} has no password change ${changeId}`);
  const done = events.find(isCompletion);
  if (done) return { outcome: 'already-sent', messageId: String(done.data.messageId) };
  if (!emailVerifiedIn(events)) return { outcome: 'unverified' };

  const user = registered.data as UserRegistered['data'];
  const renamed = events.findLast((event) => event.type === 'UserNameChanged');
  const firstName = renamed ? (renamed.data as UserNameChanged['data']).firstName : user.firstName;
  const mail = composePasswordChangedEmail({
    company: companyOf(deps),
    language,
    firstName,
    changedAt: (change.data as PasswordChanged['data']).changedAt,
    resetUrl: `${deps.publicUrl}/password-reset`,
  });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: passwordChangedEmailJobId(changeId) });
  const completion: PasswordChangedEmailSent = {
    type: 'PasswordChangedEmailSent',
    data: { userId, changeId, messageId: sent.messageId, sentAt: deps.clock.now().toISOString() },
  };
  await appendCompletionOnce(deps, userId, events, completion, isCompletion);
  return { outcome: 'sent', messageId: sent.messageId };
}
