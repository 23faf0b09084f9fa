/** The two-factor-locked notice's dispatch rule. */
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { typedRule } from '../job/dispatch-rule.js';
import { TWO_FACTOR_LOCKED_EMAIL_QUEUE } from '../jobs.js';
import { twoFactorLockedEmailJobId, twoFactorLockedEmailPayload } from './payload.js';

type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;

/** The notice that wrong two-factor codes locked the account's codes: one per lock (ADR 045). */
export const twoFactorLockedEmailRule = typedRule<UserEventOf<'TwoFactorLocked'>, UserEventOf<'TwoFactorLockedEmailSent'>>({
  read: toUserEvent,
  request: 'TwoFactorLocked',
  completions: ['TwoFactorLockedEmailSent'],
  queue: TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  name: 'send-two-factor-locked-email',
  jobId: ({ data }) => twoFactorLockedEmailJobId(twoFactorLockedEmailPayload.parse({ userId: data.userId, lockId: data.lockId }).lockId),
  payload: ({ data }) => twoFactorLockedEmailPayload.parse({ userId: data.userId, lockId: data.lockId }),
  matchCompletion: (event) => twoFactorLockedEmailJobId(event.data.lockId),
});
