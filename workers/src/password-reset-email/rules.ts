/** The password-reset e-mail's dispatch rule: one per reset request. */
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { typedRule } from '../job/dispatch-rule.js';
import { languageOf } from '../language.js';
import { PASSWORD_RESET_EMAIL_QUEUE } from '../jobs.js';
import { passwordResetEmailJobId, passwordResetEmailPayload } from './payload.js';

type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;

export const passwordResetEmailRule = typedRule<UserEventOf<'PasswordResetRequested'>, UserEventOf<'PasswordResetEmailSent'>>({
  read: toUserEvent,
  request: 'PasswordResetRequested',
  completions: ['PasswordResetEmailSent'],
  queue: PASSWORD_RESET_EMAIL_QUEUE,
  name: 'send-password-reset-email',
  jobId: ({ data }) =>
    passwordResetEmailJobId(passwordResetEmailPayload.parse({ userId: data.userId, requestId: data.requestId }).requestId),
  payload: ({ data }, recorded) =>
    passwordResetEmailPayload.parse({ userId: data.userId, requestId: data.requestId, language: languageOf(recorded) }),
  matchCompletion: (event) => passwordResetEmailJobId(event.data.requestId),
});
