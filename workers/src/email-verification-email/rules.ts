/** The verification e-mail's dispatch rule. */
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { typedRule } from '../job/dispatch-rule.js';
import { languageOf } from '../language.js';
import { EMAIL_VERIFICATION_EMAIL_QUEUE } from '../jobs.js';
import { emailVerificationEmailJobId, emailVerificationEmailPayload } from './payload.js';

type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;

/**
 * Another verification mail (ADR 046). The sign-up's request needs no job of its own: the welcome
 * mail carries its link.
 */
export const emailVerificationEmailRule = typedRule<UserEventOf<'EmailVerificationRequested'>, UserEventOf<'EmailVerificationEmailSent'>>({
  read: toUserEvent,
  request: 'EmailVerificationRequested',
  completions: ['EmailVerificationEmailSent'],
  queue: EMAIL_VERIFICATION_EMAIL_QUEUE,
  name: 'send-email-verification-email',
  jobId: ({ data }) =>
    emailVerificationEmailJobId(emailVerificationEmailPayload.parse({ userId: data.userId, requestId: data.requestId }).requestId),
  payload: ({ data }, recorded) =>
    emailVerificationEmailPayload.parse({ userId: data.userId, requestId: data.requestId, language: languageOf(recorded) }),
  matchCompletion: (event) => emailVerificationEmailJobId(event.data.requestId),
  needsJob: ({ data }) => data.via !== 'registration',
});
