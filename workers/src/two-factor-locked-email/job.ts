/**
 * The notice e-mail when wrong two-factor codes locked an account's codes (ADR 045): someone who
 * knows the password is guessing codes, so the owner hears of it once per lock, in the language
 * the account registered in (the request that caused the lock was likely the attacker's), and is
 * told to change the password. Idempotent through the log like the welcome e-mail.
 */
import type { RecordedEvent } from '@quern/core';
import type { TwoFactorLocked, TwoFactorLockedEmailSent, UserNameChanged, UserRegistered } from '@quern/core/identity';
import { UnrecoverableError } from 'bullmq';
import { composeTwoFactorLockedEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { languageOf } from '../language.js';
import { appendCompletionOnce, emailVerifiedIn, readUserStream } from '../user-stream.js';
import { twoFactorLockedEmailJobId, twoFactorLockedEmailPayload } from './payload.js';

export async function sendTwoFactorLockedEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { userId, lockId } = parsePayload(twoFactorLockedEmailPayload, data);
  const isCompletion = (event: RecordedEvent): boolean => event.type === 'TwoFactorLockedEmailSent' && event.data.lockId === lockId;
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered (no UserRegistered in user-${userId})`);
  const lock = events.find((event) => event.type === 'TwoFactorLocked' && event.data.lockId === lockId);
  if (!lock) throw new UnrecoverableError(`User ${userId} has no two-factor lock ${lockId}`);
  const done = events.find(isCompletion);
  if (done) return { outcome: 'already-sent', messageId: String(done.data.messageId) };
  // No mail but the verification goes to an address its owner has not proven (ADR 046).
  if (!emailVerifiedIn(events)) return { outcome: 'unverified' };

  const user = registered.data as UserRegistered['data'];
  const renamed = events.findLast((event) => event.type === 'UserNameChanged');
  const firstName = renamed ? (renamed.data as UserNameChanged['data']).firstName : user.firstName;
  const locked = lock.data as TwoFactorLocked['data'];
  const mail = composeTwoFactorLockedEmail({
    company: companyOf(deps),
    language: languageOf(registered),
    firstName,
    lockedAt: locked.lockedAt,
    until: locked.until,
    profileUrl: `${deps.publicUrl}/profile`,
  });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: twoFactorLockedEmailJobId(lockId) });
  const completion: TwoFactorLockedEmailSent = {
    type: 'TwoFactorLockedEmailSent',
    data: { userId, lockId, messageId: sent.messageId, sentAt: deps.clock.now().toISOString() },
  };
  await appendCompletionOnce(deps, userId, events, completion, isCompletion);
  return { outcome: 'sent', messageId: sent.messageId };
}
