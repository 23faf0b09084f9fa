/** The welcome e-mail's dispatch rule: one per registration. */
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { typedRule } from '../job/dispatch-rule.js';
import { languageOf } from '../language.js';
import { WELCOME_EMAIL_QUEUE } from '../jobs.js';
import { welcomeEmailJobId, welcomeEmailPayload } from './payload.js';

type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;

export const welcomeEmailRule = typedRule<UserEventOf<'UserRegistered'>, UserEventOf<'WelcomeEmailSent'>>({
  read: toUserEvent,
  request: 'UserRegistered',
  completions: ['WelcomeEmailSent'],
  queue: WELCOME_EMAIL_QUEUE,
  name: 'send-welcome-email',
  jobId: (event) => welcomeEmailJobId(welcomeEmailPayload.parse({ userId: event.data.userId }).userId),
  payload: (event, recorded) => welcomeEmailPayload.parse({ userId: event.data.userId, language: languageOf(recorded) }),
  matchCompletion: (event) => welcomeEmailJobId(event.data.userId),
});
