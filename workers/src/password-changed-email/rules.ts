/** The password-changed notice's dispatch rule. */
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { typedRule } from '../job/dispatch-rule.js';
import { languageOf } from '../language.js';
import { PASSWORD_CHANGED_EMAIL_QUEUE } from '../jobs.js';
import { passwordChangedEmailJobId, passwordChangedEmailPayload } from './payload.js';

type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;

/**
 * The notice after a profile password change. Only changes that carry a change id (profile
 * changes since the profile page) ask for it; a reset by e-mailed link already went through the
 * inbox the notice would go to.
 */
export const passwordChangedEmailRule = typedRule<UserEventOf<'PasswordChanged'>, UserEventOf<'PasswordChangedEmailSent'>>({
  read: toUserEvent,
  request: 'PasswordChanged',
  completions: ['PasswordChangedEmailSent'],
  queue: PASSWORD_CHANGED_EMAIL_QUEUE,
  name: 'send-password-changed-email',
  jobId: ({ data }) =>
    passwordChangedEmailJobId(passwordChangedEmailPayload.parse({ userId: data.userId, changeId: data.changeId }).changeId),
  payload: ({ data }, recorded) =>
    passwordChangedEmailPayload.parse({ userId: data.userId, changeId: data.changeId, language: languageOf(recorded) }),
  matchCompletion: (event) => passwordChangedEmailJobId(event.data.changeId),
  needsJob: ({ data }) => data.via === 'profile' && data.changeId !== undefined,
});
