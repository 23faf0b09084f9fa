/** The support e-mail's dispatch rule. */
import { toSupportEvent, type SupportEvent } from '@quern/core/contact';
import { typedRule } from '../job/dispatch-rule.js';
import { SUPPORT_EMAIL_JOB_NAME, SUPPORT_EMAIL_QUEUE, supportEmailJobId, supportEmailPayload } from './payload.js';

type SupportEventOf<T extends SupportEvent['type']> = Extract<SupportEvent, { type: T }>;

/** A contact or support message is mailed to the support mailbox and acknowledged; done when sent. */
export const supportEmailRule = typedRule<SupportEventOf<'SupportMessageSubmitted'>, SupportEventOf<'SupportMessageSent'>>({
  read: toSupportEvent,
  request: 'SupportMessageSubmitted',
  completions: ['SupportMessageSent'],
  queue: SUPPORT_EMAIL_QUEUE,
  name: SUPPORT_EMAIL_JOB_NAME,
  jobId: ({ data }) => supportEmailJobId(supportEmailPayload.parse({ messageId: data.messageId }).messageId),
  payload: ({ data }) => supportEmailPayload.parse({ messageId: data.messageId }),
  matchCompletion: ({ data }) => supportEmailJobId(data.messageId),
});
