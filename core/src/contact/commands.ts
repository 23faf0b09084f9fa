/**
 * Support message commands. The api submits a message once its captcha and rate limits passed;
 * the message id is made by the caller (a fresh UUID), so the message's stream starts empty.
 */
import type { SupportMessageSubmitted } from './events.js';

export type SupportSubmission = Omit<SupportMessageSubmitted['data'], 'messageId' | 'submittedAt'>;

export interface SubmitSupportMessage {
  type: 'SubmitSupportMessage';
  data: { messageId: string; submission: SupportSubmission };
}

export type SupportCommand = SubmitSupportMessage;
